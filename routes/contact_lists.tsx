/** /contact-lists: the campaigns' contact lists (issue #19), the first page read on the server. */
import ContactListsPage, { type ContactListsPageProps } from "../islands/ContactListsPage.tsx";
import { Island, type PageProps } from "../server/pages/island.tsx";
import type { PageLoad } from "../server/pages/loader.ts";
import { AdminRoute } from "../server/pages/admin_route.tsx";

/** The first page of lists as GET /contact-lists answers it. */
export function load(l: PageLoad) {
  return l.api("/contact-lists?pageNumber=1");
}

/** The contact lists page. */
export default function ContactListsRoute({ ctx, data }: PageProps) {
  return (
    <AdminRoute ctx={ctx}>
      <Island<ContactListsPageProps> ctx={ctx} name="ContactListsPage" component={ContactListsPage} props={{ initial: data ?? null, viewer: ctx.viewer }} />
    </AdminRoute>
  );
}
