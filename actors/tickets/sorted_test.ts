import assert from "node:assert/strict";
import { buildTicket, type Ticket } from "../../domain/ticket.ts";
import { byRecency } from "../../domain/ticket_query.ts";
import { SortedTickets, visitMerged } from "./sorted.ts";

function ticket(id: number, updatedAt: number): Ticket {
  const t = buildTicket({
    id, uuid: `u${id}`, companyId: 1, contactId: id, whatsappId: 1, queueId: null, userId: null,
    status: "pending", isGroup: false, channel: "whatsapp",
  }, updatedAt);
  return { ...t, updatedAt };
}

/** A deterministic pseudo-random sequence (the test must fail the same way every time). */
function random(seed: number): () => number {
  return () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
}

Deno.test("SortedTickets stays in recency order under pushes, front, middle and back changes", () => {
  const list = new SortedTickets();
  const live = new Map<number, Ticket>();
  const next = random(42);
  let clock = 1_000;
  for (let step = 0; step < 20_000; step++) {
    const r = next();
    const id = 1 + Math.floor(next() * 3000);
    const old = live.get(id);
    if (old) assert.equal(list.remove(old), true, `remove ${id}`);
    if (r < 0.85 || !old) {
      // Mostly a message (the ticket becomes the newest); sometimes an older time (an edit).
      const at = r < 0.7 ? ++clock : Math.floor(next() * clock);
      const t = ticket(id, at);
      list.insert(t);
      live.set(id, t);
    } else live.delete(id);
    if (step % 997 === 0 || step === 19_999) {
      const want = [...live.values()].sort((a, b) => byRecency(b, a)); // oldest first
      assert.equal(list.length, want.length);
      assert.deepEqual(list.slice(0, list.length).map((t) => t.id), want.map((t) => t.id));
      assert.equal(list.at(-1), undefined);
      assert.equal(list.at(list.length), undefined);
      assert.equal(list.at(0)?.id, want[0]?.id);
      assert.deepEqual(list.slice(-5, 3).map((t) => t.id), want.slice(0, 3).map((t) => t.id));
    }
  }
  assert.equal(list.remove(ticket(999_999, 1)), false, "an absent ticket");
});

Deno.test("visitMerged walks several lists newest first, each ticket once, and stops on false", () => {
  const a = new SortedTickets();
  const b = new SortedTickets();
  const ts = Array.from({ length: 10 }, (_, i) => ticket(i + 1, 100 + i));
  for (const t of ts) {
    if (t.id % 2 === 0) a.insert(t);
    if (t.id % 3 === 0) b.insert(t);
  }
  // Make the front of `a` move: remove its oldest twice.
  a.remove(ts[1]);
  a.remove(ts[3]);
  const seen: number[] = [];
  visitMerged([a, b], false, (t) => void seen.push(t.id));
  assert.deepEqual(seen, [10, 9, 8, 6, 3]);
  const upward: number[] = [];
  visitMerged([a, b], true, (t) => upward.push(t.id) < 3);
  assert.deepEqual(upward, [3, 6, 8]);
});

Deno.test("SortedTickets keeps its chunks bounded and ordered while a large list fills and drains", () => {
  const list = new SortedTickets();
  const next = random(7);
  const tickets = Array.from({ length: 5000 }, (_, i) => ticket(i + 1, Math.floor(next() * 1_000_000)));
  for (const t of tickets) list.insert(t);
  const check = (live: Ticket[]) => {
    const want = [...live].sort((a, b) => byRecency(b, a)).map((t) => t.id);
    assert.equal(list.length, want.length);
    assert.deepEqual(list.chunks.flat().map((t) => t.id), want);
    for (const chunk of list.chunks) assert.ok(chunk.length > 0 && chunk.length <= 512, `a chunk of ${chunk.length}`);
    // Positions read from either end agree with the order.
    for (const i of [0, 1, want.length >> 1, want.length - 2, want.length - 1]) {
      if (i >= 0 && i < want.length) assert.equal(list.at(i)?.id, want[i], `at(${i})`);
    }
    assert.deepEqual(list.slice(700, 1300).map((t) => t.id), want.slice(700, 1300));
  };
  check(tickets);
  assert.ok(list.chunks.length > 9, "5,000 tickets span many chunks");
  // Drain in a random order: chunks empty, shrink and merge.
  const live = [...tickets];
  while (live.length > 0) {
    const [t] = live.splice(Math.floor(next() * live.length), 1);
    assert.equal(list.remove(t), true);
    assert.equal(list.remove(t), false, "removed once");
    if (live.length % 499 === 0) check(live);
  }
  assert.equal(list.chunks.length, 0);
});

Deno.test("visitMerged walks lists that span many chunks, both ways", () => {
  const lists = [new SortedTickets(), new SortedTickets(), new SortedTickets()];
  const all: Ticket[] = [];
  for (let id = 1; id <= 3000; id++) {
    const t = ticket(id, 10_000 + ((id * 7919) % 3001));
    all.push(t);
    if (id % 2 === 0) lists[0].insert(t);
    if (id % 3 === 0) lists[1].insert(t);
    if (id % 5 === 0 || id === 1) lists[2].insert(t);
  }
  const members = all.filter((t) => t.id % 2 === 0 || t.id % 3 === 0 || t.id % 5 === 0 || t.id === 1);
  const newestFirst = members.sort(byRecency).map((t) => t.id);
  const down: number[] = [];
  visitMerged(lists, false, (t) => void down.push(t.id));
  assert.deepEqual(down, newestFirst);
  const up: number[] = [];
  visitMerged(lists, true, (t) => void up.push(t.id));
  assert.deepEqual(up, [...newestFirst].reverse());
  const one: number[] = [];
  visitMerged([lists[0]], false, (t) => one.push(t.id) < 1200);
  assert.deepEqual(one, all.filter((t) => t.id % 2 === 0).sort(byRecency).slice(0, 1200).map((t) => t.id));
});
