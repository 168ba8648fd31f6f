/** /connections: the connections screen of spec 001 §2.1–2.3, its rows read on the server. */
import ConnectionsPage, { type ConnectionsPageProps } from "../islands/ConnectionsPage.tsx";
import { Island, type PageProps } from "../server/pages/island.tsx";
import type { PageLoad } from "../server/pages/loader.ts";
import { AdminRoute } from "../server/pages/admin_route.tsx";

/** The page's stylesheet (static/pages/connections.css). */
export const css = "connections";

/** Every connection of the company as GET /whatsapp answers it (the list is not paged). */
export function load(l: PageLoad) {
  return l.api("/whatsapp");
}

/** The connections page. */
export default function ConnectionsRoute({ ctx, data }: PageProps) {
  return (
    <AdminRoute ctx={ctx}>
      <Island<ConnectionsPageProps>
        ctx={ctx}
        name="ConnectionsPage"
        component={ConnectionsPage}
        props={{ initial: (data as ConnectionsPageProps["initial"]) ?? null, viewer: ctx.viewer }}
      />
    </AdminRoute>
  );
}
