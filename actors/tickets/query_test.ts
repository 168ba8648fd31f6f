import assert from "node:assert/strict";
import type { Principal } from "../../domain/permissions.ts";
import { buildTicket, type Ticket } from "../../domain/ticket.ts";
import { inList, queryFilter, showsAll } from "../../domain/ticket_query.ts";
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

/** Every index of `index` as plain data, lists in their order, for comparing two indexes. */
function snapshot(index: TicketIndex) {
  const lists = (m: Map<number, { length: number; slice(a: number, b: number): Ticket[] }>) =>
    [...m].filter(([, l]) => l.length > 0).map(([k, l]) => [k, l.slice(0, l.length).map((t) => t.id)]).sort();
  const sets = (m: Iterable<[number, Iterable<number>]>) => [...m].map(([k, s]) => [k, [...s].sort()]).sort();
  return {
    byId: [...index.byId].sort(),
    byUuid: [...index.byUuid].sort(),
    active: [...index.active].sort(),
    byContact: sets(index.byContact),
    byTag: sets(index.byTag),
    lists: (["open", "pending", "closed"] as const).map((s) => ({
      all: index.all[s].slice(0, index.all[s].length).map((t) => t.id),
      groups: index.groups[s].slice(0, index.groups[s].length).map((t) => t.id),
      byUser: lists(index.byUser[s]),
      byQueue: lists(index.byQueue[s]),
    })),
  };
}

Deno.test("TicketIndex.put() of changed tickets leaves every index as a fresh load of the same tickets would", () => {
  let seed = 7;
  const pick = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  const index = new TicketIndex();
  const current = new Map<number, Ticket>();
  for (let step = 0; step < 3000; step++) {
    const id = 1 + pick(60);
    const before = current.get(id) ?? make(id, {});
    const status = (["open", "pending", "closed"] as const)[pick(3)];
    const next: Ticket = {
      ...before,
      status,
      userId: status === "pending" ? null : [null, 3, 4][pick(3)],
      queueId: [null, 10, 11][pick(3)],
      contactId: pick(4) === 0 ? 1 + pick(30) : before.contactId,
      whatsappId: pick(5) === 0 ? 1 + pick(2) : before.whatsappId,
      isGroup: pick(6) === 0 ? !before.isGroup : before.isGroup,
      tagIds: pick(3) === 0 ? [[], [1], [1, 2], [2, 3]][pick(4)] : before.tagIds,
      updatedAt: 2000 + step,
    };
    // The one-active-ticket rule holds in the desk: skip a change that would break it.
    const holder = next.status !== "closed" ? index.activeOf(next.contactId, next.whatsappId) : undefined;
    if (holder && holder.id !== id) continue;
    index.put(next);
    current.set(id, next);
  }
  const fresh = new TicketIndex();
  fresh.loadAll([...current.values()]);
  assert.deepEqual(snapshot(index), snapshot(fresh));
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

Deno.test("queryTickets() with search ids answers from the columns what the records would answer", () => {
  let seed = 11;
  const pick = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  const statuses = ["open", "pending", "closed"] as const;
  const random = (id: number): Ticket =>
    make(id, {
      status: statuses[pick(3)],
      userId: [null, 3, 4][pick(3)],
      queueId: [null, 10, 11][pick(3)],
      isGroup: pick(5) === 0,
      whatsappId: 1 + pick(2),
      // Few distinct dates: ties fall back to the id.
      updatedAt: 5000 + pick(40),
      createdAt: 1000 + pick(40),
    });
  const current = new Map<number, Ticket>();
  for (let id = 1; id <= 300; id++) current.set(id, random(id));
  const index = new TicketIndex();
  index.loadAll([...current.values()]); // the bulk load (load_rows.ts) fills the columns
  for (let step = 0; step < 200; step++) { // then single changes and new tickets
    const t = random(1 + pick(330));
    index.put(t);
    current.set(t.id, t);
  }
  const admin: Principal = { ...agent, id: 4, profile: "admin" };
  const settingsOf = [{}, { viewclosed: "enabled", viewgroups: "enabled" }, { allusersviewgroups: "enabled" }];
  const orders = [undefined, "updatedAt", "createdAt", "id", "latestCreatedAt"] as const;
  for (let round = 0; round < 400; round++) {
    const ids = new Set(Array.from({ length: pick(120) }, () => 1 + pick(340))); // some never existed
    const who = [agent, admin][pick(2)];
    const settings = settingsOf[pick(3)];
    const q = {
      showAll: pick(2) === 0,
      status: pick(3) === 0 ? statuses[pick(3)] : undefined,
      statuses: pick(4) === 0 ? [statuses[pick(3)], statuses[pick(3)]] : undefined,
      orderBy: orders[pick(orders.length)],
      order: pick(2) === 0 ? "ASC" as const : undefined,
      limit: 1 + pick(15),
      pageNumber: 1 + pick(3),
      // A filter the columns do not hold: the records answer.
      whatsappIds: pick(5) === 0 ? [1] : undefined,
    };
    const all = showsAll(q, who);
    const field = q.orderBy ?? "updatedAt";
    const sign = q.order === "ASC" ? 1 : -1;
    const expected = [...ids].map((id) => current.get(id)).filter((t): t is Ticket =>
      t !== undefined && queryFilter(q)(t) && (!q.statuses || q.statuses.includes(t.status)) &&
      inList(t, who, settings, all)
    ).sort((a, b) => sign * (((a[field] ?? 0) - (b[field] ?? 0)) || a.id - b.id));
    const page = queryTickets(index, q, who, settings, ids);
    const from = (q.pageNumber - 1) * q.limit;
    const context = JSON.stringify({ round, q, who: who.profile, settings });
    assert.deepEqual(page.tickets.map((t) => t.id), expected.slice(from, from + q.limit).map((t) => t.id), context);
    assert.deepEqual(page.tickets, expected.slice(from, from + q.limit), context);
    assert.equal(page.count, expected.length, context);
    assert.equal(page.hasMore, from + q.limit < expected.length, context);
  }
});
