/**
 * The bulk load (TicketIndex.loadAll of an empty index: load_rows.ts, the radix order, the
 * columns' and groups' bulk paths) against the one-by-one path (`put` of each ticket, oldest
 * first): every structure the same, in the same order, and the same after random puts and
 * drops applied to both.
 */
import assert from "node:assert/strict";
import { seededRandom } from "../_runtime/testing.ts";
import { buildTicket, type Ticket, type TicketStatus } from "../../domain/ticket.ts";
import { byRecency } from "../../domain/ticket_query.ts";
import type { SortedTickets } from "./sorted.ts";
import { STATUSES, TicketIndex } from "./index.ts";

const ids = (list: SortedTickets) => Array.from({ length: list.length }, (_, i) => list.at(i)!.id);
const lists = (m: Map<number, SortedTickets>) => [...m].map(([k, l]) => [k, ids(l)]);
const sets = (m: Map<number, Set<number>>) => [...m].map(([k, s]) => [k, [...s]]);

/** Everything the index holds, as plain data in its iteration orders. */
function shape(index: TicketIndex) {
  const c = index.columns;
  return {
    size: index.size,
    byId: [...index.byId].map(([id, t]) => [id, t]),
    byUuid: [...index.byUuid].sort((a, b) => a[1] - b[1]),
    uuidHits: [...index.byId.values()].map((t) => index.byUuid.get(t.uuid)),
    active: [...index.active],
    byContact: [...index.byContact].map(([k, g]) => [k, [...g], g.size]),
    byTag: sets(index.byTag),
    byOportunidade: sets(index.byOportunidade),
    lists: STATUSES.map((s) => [ids(index.all[s]), ids(index.groups[s]), lists(index.byUser[s]), lists(index.byQueue[s])]),
    live: [[...index.live.open], [...index.live.pending]],
    columns: [c.flags, c.created, c.user, c.queue, c.whatsapp, c.contact].map((a) => [...a.subarray(0, c.end)]),
    end: c.end,
    byUser: [...c.idsByUser].map(([k, g]) => [k, [...g]]),
    byQueue: [...c.idsByQueue].map(([k, g]) => [k, [...g]]),
    byDay: [...c.byDay.days].flatMap(([d, m]) => [...m].map(([k, v]) => `${d}|${k}|${v.flags},${v.user},${v.queue},${v.whatsapp}=${v.n}`)).sort(),
    createdOrder: [...c.createdOrder()],
  };
}

function world(seed: number) {
  const next = seededRandom(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)];
  const statuses: TicketStatus[] = ["open", "pending", "closed", "closed"];
  const BASE = Date.UTC(2026, 0, 1);
  const make = (id: number): Ticket => {
    const t = buildTicket({
      id, uuid: crypto.randomUUID(), companyId: 1, contactId: 1 + Math.floor(next() * 300),
      whatsappId: pick([null, 1, 2, 0]), queueId: pick([null, 4, 5, 70_000]), userId: pick([null, 1, 2, 3, 200_000]),
      status: pick(statuses), isGroup: next() < 0.1, channel: "whatsapp",
    }, BASE + Math.floor(next() * 40) * 3_600_000);
    return {
      ...t,
      updatedAt: t.createdAt + Math.floor(next() * 5) * 60_000, // many equal dates: ties by id
      tagIds: next() < 0.3 ? [pick([1, 2, 3]), pick([4, 5])] : t.tagIds,
      oportunidadeId: next() < 0.2 ? pick([7, 8]) : null,
    };
  };
  return { next, pick, make };
}

/** The one-by-one path: `put` of each ticket oldest first. */
function oneByOne(tickets: readonly Ticket[]): TicketIndex {
  const index = new TicketIndex();
  for (const t of [...tickets].sort((a, b) => byRecency(b, a))) index.put(t);
  return index;
}

Deno.test("loadAll of an empty index builds what put of each ticket oldest first builds, and both change alike", async (t) => {
  for (const [name, seed, count, spread] of [["dense ids", 3, 3000, 1], ["ids with holes", 4, 1500, 3]] as const) {
    await t.step(name, () => {
      const { next, pick, make } = world(seed);
      const tickets = Array.from({ length: count }, (_, i) => make(1 + i * spread)).sort(() => next() - 0.5);
      const bulk = new TicketIndex();
      bulk.loadAll([...tickets]);
      const single = oneByOne(tickets);
      assert.deepEqual(shape(bulk), shape(single));
      // The same random changes to both: put (new, moved, re-dated, re-statused) and drop.
      let nextId = count * spread + 1;
      for (let step = 0; step < 1500; step++) {
        const r = next();
        const known = [...single.byId.keys()];
        if (r < 0.2) {
          const fresh = make(nextId++);
          bulk.put(fresh);
          single.put(fresh);
        } else if (r < 0.3) {
          const id = pick(known);
          bulk.drop(id);
          single.drop(id);
        } else {
          const old = single.byId.get(pick(known))!;
          const changed = { ...make(old.id), uuid: next() < 0.9 ? old.uuid : crypto.randomUUID(), updatedAt: old.updatedAt + 1 };
          bulk.put(changed);
          single.put(changed);
        }
      }
      assert.deepEqual(shape(bulk), shape(single));
    });
  }
  await t.step("odd records (a repeated id, a fractional date) take the one-by-one path", () => {
    const { make } = world(5);
    const a = make(1);
    const tickets = [a, { ...make(2), updatedAt: a.updatedAt + 0.5 }, make(3)];
    const bulk = new TicketIndex();
    bulk.loadAll([...tickets]);
    assert.deepEqual(shape(bulk), shape(oneByOne(tickets)));
  });
  await t.step("records already oldest first (a snapshot's order) skip the sort", () => {
    const { make } = world(6);
    const tickets = Array.from({ length: 500 }, (_, i) => make(i + 1)).sort((a, b) => byRecency(b, a));
    const bulk = new TicketIndex();
    bulk.loadAll([...tickets]);
    assert.deepEqual(shape(bulk), shape(oneByOne(tickets)));
  });
});
