/** /contact-lists/:contactListId/contacts: one list's contacts (issue #19), read on the server. */
import ContactListItemsPage, { type ContactListItemsPageProps } from "../islands/ContactListItemsPage.tsx";
import { Island, type PageProps } from "../server/pages/island.tsx";
import type { PageLoad } from "../server/pages/loader.ts";
import { AdminRoute } from "../server/pages/admin_route.tsx";

/** The picker dialog's stylesheet (static/pages/contact_lists.css). */
export const css = "contact_lists";

/** The list's id from the address, or 0 when it is not a number. */
function listId(params: Record<string, string>): number {
  const id = Number(params.contactListId);
  return Number.isInteger(id) && id > 0 ? id : 0;
}

/** The list's name and its first page of contacts. */
export async function load(l: PageLoad) {
  const id = listId(l.params);
  if (!id) return null;
  const [list, items] = await Promise.all([
    l.api<{ name: string }>(`/contact-lists/${id}`),
    l.api(`/contact-list-items?contactListId=${id}&pageNumber=1`),
  ]);
  return { name: list?.name ?? null, items };
}

/** The list items page. */
export default function ContactListItemsRoute({ ctx, params, data }: PageProps) {
  const loaded = data as { name: string | null; items: ContactListItemsPageProps["initial"] } | null | undefined;
  return (
    <AdminRoute ctx={ctx}>
      <Island<ContactListItemsPageProps>
        ctx={ctx}
        name="ContactListItemsPage"
        component={ContactListItemsPage}
        props={{ initial: loaded?.items ?? null, viewer: ctx.viewer, contactListId: listId(params), listName: loaded?.name ?? null }}
      />
    </AdminRoute>
  );
}
