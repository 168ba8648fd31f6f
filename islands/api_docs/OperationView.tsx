/**
 * One operation of /api-docs as a native `<details>`: it opens and closes without script, and
 * the search island filters the list by each element's `data-search` text.
 */
import { t } from "../lib/i18n.ts";
import { type ApiMedia, type ApiOperation, type JsonSchema, refsOf } from "./types.ts";

/** The components by name, for showing a bare `$ref` as the schema it names. */
export type Components = Record<string, JsonSchema>;

/** A schema as indented JSON (a bare `$ref` shown as its component), with links to the components it names. */
export function SchemaBlock({ schema, example, components }: { schema?: JsonSchema; example?: unknown; components?: Components }) {
  const ref = typeof schema?.$ref === "string" ? schema.$ref.split("/").pop()! : undefined;
  const shown = ref && components?.[ref] ? components[ref] : schema;
  const refs = refsOf(shown).filter((name) => name !== ref);
  return (
    <div className="api-schema">
      {ref && <code className="api-media-type">{ref}</code>}
      {shown && <pre>{JSON.stringify(shown, null, 2)}</pre>}
      {refs.length > 0 && (
        <p className="api-refs">
          {refs.map((name) => <a key={name} href={`#schema-${name}`}>{name}</a>)}
        </p>
      )}
      {example !== undefined && (
        <>
          <h5>{t("apiDocs.example")}</h5>
          <pre>{JSON.stringify(example, null, 2)}</pre>
        </>
      )}
    </div>
  );
}

function Media({ content, components }: { content: Record<string, ApiMedia>; components: Components }) {
  return (
    <>
      {Object.entries(content).map(([type, media]) => (
        <div key={type}>
          <code className="api-media-type">{type}</code>
          <SchemaBlock schema={media.schema} example={media.example} components={components} />
        </div>
      ))}
    </>
  );
}

/** The names of the security schemes an operation accepts, or "public". */
function authOf(op: ApiOperation): string {
  const names = (op.security ?? []).flatMap((s) => Object.keys(s));
  if (names.length > 0) return names.join(", ");
  return op.tags?.includes("Provider webhooks") ? t("apiDocs.authSignature") : t("apiDocs.authNone");
}

/** One operation: a summary line, then its parameters, body and responses. */
export function OperationView(
  { method, path, op, components }: { method: string; path: string; op: ApiOperation; components: Components },
) {
  const search = `${method} ${path} ${op.summary} ${op.operationId}`.toLowerCase();
  return (
    <details className="api-op" id={op.operationId} data-op="" data-search={search}>
      <summary>
        <span className={`api-method api-method-${method}`}>{method.toUpperCase()}</span>
        <code className="api-path">{path}</code>
        <span className="api-summary">{op.summary}</span>
      </summary>
      <div className="api-op-body">
        {op.description && <p className="api-description">{op.description}</p>}
        <dl className="api-facts">
          <dt>{t("apiDocs.auth")}</dt>
          <dd>{authOf(op)}</dd>
          {op["x-access"] && (
            <>
              <dt>{t("apiDocs.access")}</dt>
              <dd>{op["x-access"]}</dd>
            </>
          )}
        </dl>
        {(op.parameters?.length ?? 0) > 0 && (
          <>
            <h4>{t("apiDocs.parameters")}</h4>
            <div className="api-table-wrap">
              <table className="api-params">
                <thead>
                  <tr>
                    <th>{t("apiDocs.paramName")}</th>
                    <th>{t("apiDocs.paramIn")}</th>
                    <th>{t("apiDocs.paramSchema")}</th>
                  </tr>
                </thead>
                <tbody>
                  {op.parameters!.map((p) => (
                    <tr key={`${p.in}-${p.name}`}>
                      <td>
                        <code>{p.name}</code>
                        {p.required && <span className="api-required"> {t("apiDocs.required")}</span>}
                      </td>
                      <td>{p.in}</td>
                      <td><code className="api-inline-schema">{JSON.stringify(p.schema ?? {})}</code></td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
        {op.requestBody && (
          <>
            <h4>{t("apiDocs.body")}</h4>
            <Media content={op.requestBody.content} components={components} />
          </>
        )}
        <h4>{t("apiDocs.responses")}</h4>
        <ul className="api-responses">
          {Object.entries(op.responses).map(([status, response]) => (
            <li key={status}>
              <strong className="api-status">{status}</strong> {response.description}
              {response.content && (
                <p className="api-refs">
                  {Object.entries(response.content).map(([type, media]) =>
                    refsOf(media.schema).map((name) => <a key={type + name} href={`#schema-${name}`}>{name}</a>)
                  )}
                </p>
              )}
            </li>
          ))}
        </ul>
      </div>
    </details>
  );
}
