/**
 * The body of /api-docs, rendered on the server from GET /openapi.json: the operations by
 * tag, the authentication schemes, the outbound webhooks and the schemas. Ships no script of
 * its own; the search bar is the ApiDocsSearch island.
 */
import type { ReactNode } from "react";
import { t } from "../lib/i18n.ts";
import { OperationView, SchemaBlock } from "./OperationView.tsx";
import { type ApiDocument, byTag } from "./types.ts";

/** A titled block of the page. */
function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="api-section" id={id} data-tag-section="">
      <h2>{title}</h2>
      {children}
    </section>
  );
}

/** The whole document; `search` is the search island, placed above the operations. */
export function ApiDocsView({ doc, search }: { doc: ApiDocument; search: ReactNode }) {
  const groups = byTag(doc);
  return (
    <div className="api-docs" data-testid="api-docs">
      <header className="api-header">
        <h1>{t("apiDocs.title")}</h1>
        <p>{t("apiDocs.intro")}</p>
        <p className="api-muted">{doc.info.description}</p>
        <p>
          <a href="/openapi.json" download="balcao-openapi.json">{t("apiDocs.download")}</a>
          <span className="api-muted"> · OpenAPI 3.1 · v{doc.info.version}</span>
        </p>
      </header>
      <section className="api-section">
        <h2>{t("apiDocs.schemes")}</h2>
        <dl className="api-facts">
          {Object.entries(doc.components.securitySchemes).map(([name, scheme]) => (
            <div key={name}>
              <dt><code>{name}</code></dt>
              <dd>{scheme.description}</dd>
            </div>
          ))}
        </dl>
      </section>
      {search}
      {groups.map(([tag, ops]) => (
        <Section key={tag} id={`tag-${tag.replace(/\W+/g, "-")}`} title={tag}>
          {ops.map((entry) => <OperationView key={entry.op.operationId} {...entry} components={doc.components.schemas} />)}
        </Section>
      ))}
      {doc.webhooks && (
        <Section id="webhooks" title={t("apiDocs.webhooks")}>
          {Object.entries(doc.webhooks).flatMap(([name, item]) =>
            Object.entries(item).map(([method, op]) => <OperationView key={name} method={method} path={name} op={op} components={doc.components.schemas} />)
          )}
        </Section>
      )}
      <section className="api-section">
        <h2>{t("apiDocs.schemas")}</h2>
        {Object.entries(doc.components.schemas).map(([name, schema]) => (
          <details key={name} className="api-op api-component" id={`schema-${name}`}>
            <summary><code>{name}</code></summary>
            <SchemaBlock schema={schema} />
          </details>
        ))}
      </section>
    </div>
  );
}
