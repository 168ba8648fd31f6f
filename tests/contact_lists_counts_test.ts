/**
 * The contact-lists actor's kept counts per list (#19: the campaign report's valid contacts
 * and the lists page read them instead of walking the items) equal a recount from the items
 * through random adds (with repeats), edits (number and list changes), validity answers,
 * deletes and whole-list deletes, and after a reload from KV.
 */
import assert from "node:assert/strict";
import { withSystem } from "../actors/_runtime/testing.ts";
import { itemsActor, listCounts, listCountsOf } from "../actors/contact_lists/mod.ts";
import type { ItemsState } from "../actors/contact_lists/items.ts";
import type { ListCounts } from "../domain/contact_list.ts";

const COMPANY = 5;

function recount(state: ItemsState): Map<number, ListCounts> {
  const out = new Map<number, ListCounts>();
  for (const item of state.items.values()) {
    let c = out.get(item.contactListId);
    if (!c) out.set(item.contactListId, c = { contactsCount: 0, pendingCount: 0, invalidCount: 0 });
    c.contactsCount++;
    if (item.isWhatsappValid === null) c.pendingCount++;
    if (item.isWhatsappValid === false) c.invalidCount++;
  }
  return out;
}

Deno.test("contact lists: kept counts per list equal a recount through random changes and a reload", async () => {
  let seed = 7;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)];
  await withSystem(async ({ system }) => {
    const items = () => system.ref(itemsActor, COMPANY);
    const check = async (label: string) => {
      const state = await items().peek<ItemsState>();
      assert.deepEqual(await listCounts(system, COMPANY), recount(state), label);
      for (const listId of [1, 2, 3]) {
        assert.deepEqual(await listCountsOf(system, COMPANY, listId), recount(state).get(listId) ?? { contactsCount: 0, pendingCount: 0, invalidCount: 0 });
      }
    };
    for (let n = 0; n < 400; n++) {
      const state = await items().peek<ItemsState>();
      const ids = [...state.items.keys()];
      const r = random();
      const number = () => `5511${String(Math.floor(random() * 60)).padStart(9, "0")}`;
      if (r < 0.35 || ids.length === 0) {
        const rows = Array.from({ length: 1 + Math.floor(random() * 6) }, () => ({ name: "X", number: number(), email: null }));
        await items().ask("add", { listId: 1 + Math.floor(random() * 3), rows });
      } else if (r < 0.6) {
        const item = state.items.get(pick(ids))!;
        await items().ask("setValidity", { id: item.id, number: item.number, valid: random() < 0.6 });
      } else if (r < 0.8) {
        const item = state.items.get(pick(ids))!;
        const fields = { name: "Y", number: random() < 0.5 ? item.number : number(), email: null, contactListId: random() < 0.3 ? 1 + Math.floor(random() * 3) : item.contactListId };
        await items().ask("update", { id: item.id, fields }).catch((e) => assert.match(String(e), /already in contact list/));
      } else if (r < 0.97) {
        await items().ask("remove", pick(ids));
      } else {
        await items().ask("removeList", 1 + Math.floor(random() * 3));
      }
      await check(`change ${n}`);
    }
    // A reload from KV counts the same.
    const before = await listCounts(system, COMPANY);
    await items().ask("setValidity", { id: -1, number: "", valid: true }); // every write durable
    assert.equal(system.evictWhere((kind) => kind === itemsActor.kind), 1, "dropped");
    assert.deepEqual(await listCounts(system, COMPANY), before);
    assert.ok(before.size > 0);
  });
});
