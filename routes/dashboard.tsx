/** / : the dashboard of spec 000 §2 (admin and supervisor, §6), its first numbers read on the server. */
import DashboardPage, { type DashboardPageProps } from "../islands/DashboardPage.tsx";
import { Island, type PageProps } from "../server/pages/island.tsx";
import type { PageLoad } from "../server/pages/loader.ts";
import { AdminRoute } from "../server/pages/admin_route.tsx";

/** The page's own stylesheet (static/pages/dashboard.css). */
export const css = "dashboard";

/** Today's numbers (the server's default range) as GET /dashboard answers them. */
export function load(l: PageLoad) {
  return l.api("/dashboard");
}

/** The dashboard page. */
export default function DashboardRoute({ ctx, data }: PageProps) {
  return (
    <AdminRoute ctx={ctx}>
      <Island<DashboardPageProps>
        ctx={ctx}
        name="DashboardPage"
        component={DashboardPage}
        props={{ initial: data ?? null, viewer: ctx.viewer }}
      />
    </AdminRoute>
  );
}
