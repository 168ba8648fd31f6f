/**
 * KV keys of contact-list items. Items sort by list then id, so a list's items are one range
 * in id order: the sending order the campaign engine reads (server/campaigns/contact_lists.ts
 * reads the same keys).
 */
export const itemPrefix = (companyId: number): Deno.KvKey => ["contact_list_item", companyId];
export const listItemsPrefix = (companyId: number, listId: number): Deno.KvKey => ["contact_list_item", companyId, listId];
export const itemKey = (companyId: number, listId: number, id: number): Deno.KvKey => ["contact_list_item", companyId, listId, id];
export const itemCounterKey = (companyId: number): Deno.KvKey => ["counter", "contact_list_item", companyId];
