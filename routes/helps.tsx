/** /helps: the Help screen of spec 001 §2.9, its entries read on the server. */
import HelpsPage, { type HelpsPageProps } from "../islands/HelpsPage.tsx";
import { Island, type PageProps } from "../server/pages/island.tsx";
import type { PageLoad } from "../server/pages/loader.ts";
import { AdminRoute } from "../server/pages/admin_route.tsx";

/** The page's own stylesheet (static/pages/helps.css) and the help admin's (settings_plans.css), shown to super users. */
export const css = ["helps", "settings_plans"];

/** Every help entry as GET /helps/list answers it. */
export function load(l: PageLoad) {
  return l.api("/helps/list");
}

/** The Help page. */
export default function HelpsRoute({ ctx, data }: PageProps) {
  return (
    <AdminRoute ctx={ctx}>
      <Island<HelpsPageProps> ctx={ctx} name="HelpsPage" component={HelpsPage} props={{ initial: data ?? null, viewer: ctx.viewer }} />
    </AdminRoute>
  );
}
