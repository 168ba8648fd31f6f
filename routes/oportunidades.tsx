/** /oportunidades: the opportunities of spec 002 §2.11, their first page read on the server. */
import OportunidadesPage, { type OportunidadesPageProps } from "../islands/OportunidadesPage.tsx";
import { Island, type PageProps } from "../server/pages/island.tsx";
import type { PageLoad } from "../server/pages/loader.ts";
import { AdminRoute } from "../server/pages/admin_route.tsx";

/** The engagement pages' stylesheet (static/pages/engage.css). */
export const css = "engage";

/** The first page of opportunities as GET /oportunidade/ answers it. */
export function load(l: PageLoad) {
  return l.api("/oportunidade/?pageNumber=1");
}

/** The opportunities page. */
export default function OportunidadesRoute({ ctx, data }: PageProps) {
  return (
    <AdminRoute ctx={ctx}>
      <Island<OportunidadesPageProps> ctx={ctx} name="OportunidadesPage" component={OportunidadesPage} props={{ initial: data ?? null, viewer: ctx.viewer }} />
    </AdminRoute>
  );
}
