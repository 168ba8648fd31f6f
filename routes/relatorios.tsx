/** /relatorios: the ticket report of spec 002 §2.14, its first page read on the server. */
import ReportsPage, { type ReportsPageProps } from "../islands/ReportsPage.tsx";
import { Island, type PageProps } from "../server/pages/island.tsx";
import type { PageLoad } from "../server/pages/loader.ts";
import { AdminRoute } from "../server/pages/admin_route.tsx";

export const css = "reports";

/** The first page (10 rows, no filter) as GET /ticketreport/reports answers it. */
export function load(l: PageLoad) {
  return l.api("/ticketreport/reports?page=1&pageSize=10");
}

/** The report page. */
export default function RelatoriosRoute({ ctx, data }: PageProps) {
  return (
    <AdminRoute ctx={ctx}>
      <Island<ReportsPageProps> ctx={ctx} name="ReportsPage" component={ReportsPage} props={{ initial: data ?? null, viewer: ctx.viewer }} />
    </AdminRoute>
  );
}
