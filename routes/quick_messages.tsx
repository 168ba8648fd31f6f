/** /quick-messages: the quick replies screen of spec 001 §2.18, its first page read on the server. */
import QuickMessagesPage, { type QuickMessagesPageProps } from "../islands/QuickMessagesPage.tsx";
import { Island, type PageProps } from "../server/pages/island.tsx";
import type { PageLoad } from "../server/pages/loader.ts";
import { AdminRoute } from "../server/pages/admin_route.tsx";

/** The page's own stylesheet (static/pages/quick_messages.css). */
export const css = "quick_messages";

/** The first page of quick replies as GET /quick-messages/ answers it for the viewer. */
export function load(l: PageLoad) {
  return l.api("/quick-messages/?pageNumber=1");
}

/** The quick messages page. */
export default function QuickMessagesRoute({ ctx, data }: PageProps) {
  return (
    <AdminRoute ctx={ctx}>
      <Island<QuickMessagesPageProps>
        ctx={ctx}
        name="QuickMessagesPage"
        component={QuickMessagesPage}
        props={{ initial: data ?? null, viewer: ctx.viewer }}
      />
    </AdminRoute>
  );
}
