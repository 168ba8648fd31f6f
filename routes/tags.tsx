/** /tags: the tags screen of spec 001 §2.16, its first page read on the server. */
import TagsPage, { type TagsPageProps } from "../islands/TagsPage.tsx";
import { Island, type PageProps } from "../server/pages/island.tsx";
import type { PageLoad } from "../server/pages/loader.ts";
import { AdminRoute } from "../server/pages/admin_route.tsx";

/** The first page of tags as GET /tags/ answers it. */
export function load(l: PageLoad) {
  return l.api("/tags/?pageNumber=1");
}

/** The tags page. */
export default function TagsRoute({ ctx, data }: PageProps) {
  return (
    <AdminRoute ctx={ctx}>
      <Island<TagsPageProps> ctx={ctx} name="TagsPage" component={TagsPage} props={{ initial: data ?? null, viewer: ctx.viewer }} />
    </AdminRoute>
  );
}
