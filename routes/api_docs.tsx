/**
 * /api-docs: the OpenAPI document (GET /openapi.json) as a page (issue #22). Not in the spec's
 * route table (002 §2.1), which lists the screens of the product it was read from; added here
 * as a public page because the document is public: it describes shapes, never data, and the
 * external API's integrators hold a connection token, not a login. Each endpoint it lists
 * enforces its own auth.
 */
import ApiDocsSearch, { type ApiDocsSearchProps } from "../islands/ApiDocsSearch.tsx";
import { ApiDocsView } from "../islands/api_docs/ApiDocsView.tsx";
import type { ApiDocument } from "../islands/api_docs/types.ts";
import { t } from "../islands/lib/i18n.ts";
import { Island, type PageProps } from "../server/pages/island.tsx";
import type { PublicPageLoad } from "../server/pages/loader.ts";

/** The page's own stylesheet (static/pages/api_docs.css). */
export const css = "api_docs";

/** The document as GET /openapi.json serves it. */
export function loadPublic(l: PublicPageLoad) {
  return l.api("/openapi.json");
}

/** The API documentation page. */
export default function ApiDocsRoute({ ctx, data }: PageProps) {
  const doc = data as ApiDocument | null;
  if (!doc?.paths) return <main className="public-page"><p>{t("apiDocs.unavailable")}</p></main>;
  // Every `<details data-op>` the view renders: the paths' operations and the outbound webhooks.
  const items = [...Object.values(doc.paths), ...Object.values(doc.webhooks ?? {})];
  const total = items.reduce((n, item) => n + Object.keys(item).length, 0);
  return (
    <main className="api-docs-page">
      <ApiDocsView
        doc={doc}
        search={<Island<ApiDocsSearchProps> ctx={ctx} name="ApiDocsSearch" component={ApiDocsSearch} props={{ total }} />}
      />
    </main>
  );
}
