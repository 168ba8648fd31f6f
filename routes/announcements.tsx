/** /announcements: the platform announcements list of spec 002 §2.7 (super users), first page read on the server. */
import AnnouncementsPage, { type AnnouncementsPageProps } from "../islands/AnnouncementsPage.tsx";
import { Island, type PageProps } from "../server/pages/island.tsx";
import type { PageLoad } from "../server/pages/loader.ts";
import { AdminRoute } from "../server/pages/admin_route.tsx";

/** The first page as GET /announcements/ answers it. */
export function load(l: PageLoad) {
  return l.api("/announcements/?pageNumber=1");
}

/** The announcements page. */
export default function AnnouncementsRoute({ ctx, data }: PageProps) {
  return (
    <AdminRoute ctx={ctx}>
      <Island<AnnouncementsPageProps>
        ctx={ctx}
        name="AnnouncementsPage"
        component={AnnouncementsPage}
        props={{ initial: data ?? null, viewer: ctx.viewer }}
      />
    </AdminRoute>
  );
}
