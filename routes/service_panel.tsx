/** /servicePanel: the service panel of spec 000 §2 (admin, supervisor), its columns read on the server. */
import ServicePanelPage, { type ServicePanelPageProps } from "../islands/ServicePanelPage.tsx";
import { Island, type PageProps } from "../server/pages/island.tsx";
import type { PageLoad } from "../server/pages/loader.ts";
import { AdminRoute } from "../server/pages/admin_route.tsx";

export const css = "service_panel";

/** The columns as GET /service-panel answers them. */
export function load(l: PageLoad) {
  return l.api("/service-panel");
}

/** The service panel page. */
export default function ServicePanelRoute({ ctx, data }: PageProps) {
  return (
    <AdminRoute ctx={ctx}>
      <Island<ServicePanelPageProps> ctx={ctx} name="ServicePanelPage" component={ServicePanelPage} props={{ initial: data ?? null, viewer: ctx.viewer }} />
    </AdminRoute>
  );
}
