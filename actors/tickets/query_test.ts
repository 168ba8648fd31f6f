import assert from "node:assert/strict";
import type { Principal } from "../../domain/permissions.ts";
import { buildTicket, type Ticket } from "../../domain/ticket.ts";
import { TicketIndex } from "./index.ts";
import { firstInOrder, queryTickets } from "./query.ts";

const agent: Principal = { id: 3, companyId: 1, profile: "user", super: false, queueIds: [10] };

function make(id: number, fields: Partial<Ticket>): Ticket {
  return {
    ...buildTicket({
      id, uuid: `u${id}`, companyId: 1, contactId: id, whatsappId: 1, queueId: 10, userId: null,
      status: "pending", isGroup: false, channel: "whatsapp",
    }, 1000 + id),
    ...fields,
  };
}

Deno.test("queryTickets() counts a ticket held by several lists once and pages in recency order", () => {
  const index = new TicketIndex();
  index.loadAll([
    make(1, {}),
    make(2, { queueId: null }),
    make(3, { userId: 3, isGroup: true }), // own, group and queue 10: three lists
    make(4, { queueId: 11 }),
    make(5, { isGroup: true }),
  ]);
  const settings = { viewgroups: "enabled" };
  const page = queryTickets(index, { status: "pending" }, agent, settings);
  assert.deepEqual(page.tickets.map((t) => t.id), [5, 3, 2, 1]);
  assert.equal(page.count, 4);
  const second = queryTickets(index, { status: "pending", limit: 2, pageNumber: 2 }, agent, settings);
  assert.deepEqual(second.tickets.map((t) => t.id), [2, 1]);
  assert.equal(second.hasMore, false);
  const asc = queryTickets(index, { status: "pending", order: "ASC", limit: 2 }, agent, settings);
  assert.deepEqual(asc.tickets.map((t) => t.id), [1, 2]);
  assert.equal(asc.hasMore, true);
});

Deno.test("TicketIndex.put() moves a ticket between lists and clears cached counts", () => {
  const index = new TicketIndex();
  index.loadAll([make(1, {}), make(2, {})]);
  assert.equal(queryTickets(index, { status: "pending" }, agent, {}).count, 2);
  index.put({ ...make(1, {}), status: "open", userId: 3, updatedAt: 5000 });
  assert.equal(queryTickets(index, { status: "pending" }, agent, {}).count, 1);
  assert.deepEqual(queryTickets(index, { status: "open" }, agent, {}).tickets.map((t) => t.id), [1]);
  assert.equal(index.activeOf(1, 1)?.status, "open");
  index.put({ ...make(1, {}), status: "closed", userId: 3, updatedAt: 6000 });
  assert.equal(index.activeOf(1, 1), undefined);
  index.drop(2);
  assert.equal(queryTickets(index, { status: "pending" }, agent, {}).count, 0);
  assert.equal(index.byContact.get(2), undefined);
});

Deno.test("firstInOrder() keeps the first k in order, as a full sort would, ties included", () => {
  const compare = (a: number, b: number) => Math.floor(a / 3) - Math.floor(b / 3);
  for (const k of [1, 5, 20, 300]) {
    const items = Array.from({ length: 200 }, (_, i) => (i * 7919) % 211);
    const sorted = [...items].sort(compare).slice(0, k);
    const first = firstInOrder([...items], compare, k);
    assert.deepEqual(first.map((x) => Math.floor(x / 3)), sorted.map((x) => Math.floor(x / 3)));
    assert.equal(first.length, Math.min(k, items.length));
  }
});
