/** /ratings: the satisfaction surveys of spec 002 §2.11, their first page read on the server. */
import RatingsPage, { type RatingsPageProps } from "../islands/RatingsPage.tsx";
import { Island, type PageProps } from "../server/pages/island.tsx";
import type { PageLoad } from "../server/pages/loader.ts";
import { AdminRoute } from "../server/pages/admin_route.tsx";

/** The engagement pages' stylesheet (static/pages/engage.css). */
export const css = "engage";

/** The first page of ratings as GET /ratings/ answers it. */
export function load(l: PageLoad) {
  return l.api("/ratings/?pageNumber=1");
}

/** The ratings page. */
export default function RatingsRoute({ ctx, data }: PageProps) {
  return (
    <AdminRoute ctx={ctx}>
      <Island<RatingsPageProps> ctx={ctx} name="RatingsPage" component={RatingsPage} props={{ initial: data ?? null, viewer: ctx.viewer }} />
    </AdminRoute>
  );
}
