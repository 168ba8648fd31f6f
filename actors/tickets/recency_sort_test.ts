import assert from "node:assert/strict";
import { seededRandom as random } from "../_runtime/testing.ts";
import type { Ticket } from "../../domain/ticket.ts";
import { byRecency } from "../../domain/ticket_query.ts";
import { sortOldestFirst } from "./recency_sort.ts";

const rows = (list: Ticket[]) => list.map((t) => `${t.updatedAt}:${t.id}`);

function check(tickets: Ticket[]): void {
  const expected = [...tickets].sort((a, b) => byRecency(b, a));
  sortOldestFirst(tickets);
  assert.deepEqual(rows(tickets), rows(expected));
}

Deno.test("sortOldestFirst orders like byRecency reversed, ties by id, on every path", async (t) => {
  const next = random(7);
  const make = (id: number, updatedAt: number) => ({ id, updatedAt }) as Ticket;
  const shuffled = (list: Ticket[]) => list.sort(() => next() - 0.5);

  await t.step("dense ids, many equal dates (the 64-bit key path)", () => {
    const base = Date.UTC(2026, 0, 1);
    check(shuffled(Array.from({ length: 5000 }, (_, i) => make(i + 1, base + Math.floor(next() * 50) * 1000))));
  });
  await t.step("dates years apart and holes in the ids", () => {
    check(shuffled(Array.from({ length: 3000 }, (_, i) => make(i * 3 + 1, Math.floor(next() * 2e12)))));
  });
  await t.step("ids far sparser than the tickets (the comparator path)", () => {
    check(shuffled(Array.from({ length: 500 }, (_, i) => make(i * 100_000 + 1, Math.floor(next() * 1e12)))));
  });
  await t.step("fractional dates and a repeated id fall back without losing a record", () => {
    check([make(3, 10.5), make(1, 10.25), make(2, 9)]);
    check([make(1, 5), make(2, 7), make(1, 6)]);
  });
  await t.step("zero, one and two tickets", () => {
    check([]);
    check([make(4, 1)]);
    check([make(9, 2), make(4, 2)]);
  });
});
