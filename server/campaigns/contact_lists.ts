/**
 * The engine's read of contact lists (actors/campaigns/ports.ts ContactListSource), over the
 * KV records `["contact_list", companyId, id]` and `["contact_list_item", companyId, listId, id]`.
 * TODO(#19): read through the contact-lists actor (actors/contact_lists/) once it lands; this
 * reader is the narrow interface the engine needs meanwhile.
 */
import type { ContactListEntry, ContactListSource } from "../../actors/campaigns/mod.ts";

export const contactListKey = (companyId: number, id: number): Deno.KvKey => ["contact_list", companyId, id];
export const contactListItemKey = (companyId: number, listId: number, id: number): Deno.KvKey => [
  "contact_list_item",
  companyId,
  listId,
  id,
];

export function kvContactLists(kv: Deno.Kv): ContactListSource {
  return {
    async name(companyId, listId) {
      return (await kv.get<{ name: string }>(contactListKey(companyId, listId))).value?.name;
    },
    async entriesAfter(companyId, listId, afterId, limit) {
      const out: ContactListEntry[] = [];
      const iter = kv.list<ContactListEntry>({
        start: contactListItemKey(companyId, listId, afterId + 1),
        end: ["contact_list_item", companyId, listId, Number.MAX_SAFE_INTEGER],
      }, { limit });
      for await (const e of iter) out.push(e.value);
      return out;
    },
    async validCount(companyId, listId) {
      let n = 0;
      for await (const e of kv.list<ContactListEntry>({ prefix: ["contact_list_item", companyId, listId] })) {
        if (e.value.isWhatsappValid !== false) n++;
      }
      return n;
    },
  };
}
