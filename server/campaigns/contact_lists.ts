/**
 * The engine's read of contact lists (actors/campaigns/ports.ts ContactListSource): the name
 * and the entries in sending order are KV reads of `["contact_list", companyId, id]` and a
 * `limit`ed range of `["contact_list_item", companyId, listId, id]` (the keys the
 * contact-lists actor writes); the report's valid-contact count is the contact-lists actor's
 * kept count per list (#19: the report used to walk every item on each read).
 */
import type { ContactListEntry, ContactListSource } from "../../actors/campaigns/mod.ts";
import { listCountsOf } from "../../actors/contact_lists/mod.ts";
import type { ActorSystem } from "../../actors/_runtime/system.ts";

export const contactListKey = (companyId: number, id: number): Deno.KvKey => ["contact_list", companyId, id];
export const contactListItemKey = (companyId: number, listId: number, id: number): Deno.KvKey => [
  "contact_list_item",
  companyId,
  listId,
  id,
];

export function kvContactLists(kv: Deno.Kv, system: ActorSystem): ContactListSource {
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
    async lastEntryId(companyId, listId) {
      const iter = kv.list<ContactListEntry>({ prefix: ["contact_list_item", companyId, listId] }, { limit: 1, reverse: true });
      for await (const e of iter) return e.value.id;
      return 0;
    },
    async validCount(companyId, listId) {
      const c = await listCountsOf(system, companyId, listId);
      return c.contactsCount - c.invalidCount;
    },
  };
}
