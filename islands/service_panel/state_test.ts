import assert from "node:assert/strict";
import type { TicketItem } from "../tickets/types.ts";
import { type PanelData, placeTicket, removeTicket } from "./state.ts";

const ticket = (id: number, status: string, userId: number | null, updatedAt: string) =>
  ({ id, status, userId, updatedAt }) as unknown as TicketItem;

function panel(): PanelData {
  return {
    users: [
      { id: 1, name: "Ana", profile: "user", online: true, tickets: [ticket(10, "open", 1, "2025-01-01T10:00:00Z")], count: 1 },
      { id: 2, name: "Bia", profile: "user", online: false, tickets: [], count: 0 },
    ],
    pending: { tickets: [ticket(20, "pending", null, "2025-01-01T09:00:00Z")], count: 1 },
    limit: 2,
  };
}

Deno.test("placeTicket() moves an accepted ticket from Aguardando to its user's column, newest first", () => {
  const next = placeTicket(panel(), ticket(20, "open", 1, "2025-01-01T11:00:00Z"));
  assert.deepEqual(next.pending, { tickets: [], count: 0 });
  assert.deepEqual(next.users[0].tickets.map((t) => t.id), [20, 10]);
  assert.equal(next.users[0].count, 2);
});

Deno.test("placeTicket() returns a ticket to Aguardando and drops a closed one", () => {
  const returned = placeTicket(panel(), ticket(10, "pending", null, "2025-01-01T12:00:00Z"));
  assert.deepEqual(returned.pending.tickets.map((t) => t.id), [10, 20]);
  assert.equal(returned.users[0].count, 0);
  const closed = placeTicket(panel(), ticket(10, "closed", 1, "2025-01-01T12:00:00Z"));
  assert.equal(closed.users[0].tickets.length, 0);
  assert.equal(closed.pending.count, 1);
});

Deno.test("placeTicket() keeps a column to the limit while its count grows", () => {
  let data = panel();
  data = placeTicket(data, ticket(30, "pending", null, "2025-01-01T13:00:00Z"));
  data = placeTicket(data, ticket(31, "pending", null, "2025-01-01T14:00:00Z"));
  assert.deepEqual(data.pending.tickets.map((t) => t.id), [31, 30]);
  assert.equal(data.pending.count, 3);
});

Deno.test("removeTicket() leaves the panel as it is when the ticket is not on it", () => {
  const data = panel();
  assert.equal(removeTicket(data, 99), data);
  assert.equal(removeTicket(data, 10).users[0].count, 0);
});
