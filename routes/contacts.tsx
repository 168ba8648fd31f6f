/** /contacts: the contacts screen of spec 001 §2.14, its first page read on the server. */
import ContactsPage, { type ContactsPageProps } from "../islands/ContactsPage.tsx";
import { Island, type PageProps } from "../server/pages/island.tsx";
import type { PageLoad } from "../server/pages/loader.ts";
import { AdminRoute } from "../server/pages/admin_route.tsx";

/** The page's own stylesheet (static/pages/contacts.css). */
export const css = "contacts";

/** The first page of contacts as GET /contacts/ answers it. */
export function load(l: PageLoad) {
  return l.api("/contacts/?pageNumber=1");
}

/** The contacts page. */
export default function ContactsRoute({ ctx, data }: PageProps) {
  return (
    <AdminRoute ctx={ctx}>
      <Island<ContactsPageProps> ctx={ctx} name="ContactsPage" component={ContactsPage} props={{ initial: data ?? null, viewer: ctx.viewer }} />
    </AdminRoute>
  );
}
