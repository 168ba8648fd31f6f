import assert from "node:assert/strict";
import { pendingTicket } from "./ticket_fixture.ts";
import type { Ticket } from "./ticket.ts";
import {
  autoCloseDue,
  autoMoveTarget,
  DEFAULT_INACTIVITY_MINUTES,
  closeTimerId,
  moveTimerId,
  nextInRotation,
  planTicketTimers,
  routeTimerId,
  type RoutedQueue,
  type TimedConnection,
} from "./ticket_timers.ts";

const NOW = 1_700_000_000_000;
const MIN = 60_000;
const conn: TimedConnection = { inatividade: 30, selectedInterval: 5, selectedMoveQueueId: 20, closeMessage: "Tchau" };
const off: TimedConnection = { inatividade: 0, selectedInterval: 0, selectedMoveQueueId: null, closeMessage: "" };
const router: RoutedQueue = { ativarRoteador: true, tempoRoteador: 2 };
const plain: RoutedQueue = { ativarRoteador: false, tempoRoteador: 0 };

function ticket(fields: Partial<Ticket> = {}): Ticket {
  return pendingTicket(NOW - 10_000, fields);
}

/** The plan as `id → due` (null = cancel), with `armed` timers given as a record. */
function plan(
  before: Ticket | undefined,
  next: Ticket,
  options: { conn?: TimedConnection; queue?: RoutedQueue; armed?: Record<string, number> } = {},
) {
  const armed = options.armed ?? {};
  const changes = planTicketTimers(before, next, options.conn ?? conn, options.queue ?? plain, (id) => armed[id], NOW, MIN);
  return Object.fromEntries(changes.map((c) => [c.id, c.dueAt]));
}

Deno.test("autoCloseDue() counts the customer's silence from the company's last message or the accept", () => {
  const open = ticket({ status: "open", userId: 3, acceptedAt: NOW - 5000, latestCreatedAt: NOW - 1000, lastFromMe: true });
  assert.equal(autoCloseDue(open, conn, MIN), NOW - 1000 + 30 * MIN);
  assert.equal(autoCloseDue({ ...open, latestCreatedAt: NOW - 9000 }, conn, MIN), NOW - 5000 + 30 * MIN);
  assert.equal(autoCloseDue({ ...open, lastFromMe: false }, conn, MIN), null, "the customer wrote last");
  assert.equal(autoCloseDue(open, off, MIN), NOW - 1000 + DEFAULT_INACTIVITY_MINUTES * MIN, "none set: the default");
  assert.equal(DEFAULT_INACTIVITY_MINUTES, 24 * 60, "spec 000 §9: 24 hours");
  assert.equal(autoCloseDue(open, undefined, MIN), null, "no connection");
  assert.equal(autoCloseDue({ ...open, isGroup: true }, conn, MIN), null, "groups");
  assert.equal(autoCloseDue({ ...open, status: "pending" }, conn, MIN), null);
});

Deno.test("autoMoveTarget() is the transfer queue for a pending ticket elsewhere, else null", () => {
  assert.equal(autoMoveTarget(ticket(), conn), 20);
  assert.equal(autoMoveTarget(ticket({ queueId: 20 }), conn), null, "already there");
  assert.equal(autoMoveTarget(ticket({ status: "open" }), conn), null);
  assert.equal(autoMoveTarget(ticket(), { ...conn, selectedInterval: 0 }), null);
  assert.equal(autoMoveTarget(ticket(), { ...conn, selectedMoveQueueId: null }), null);
});

Deno.test("planTicketTimers() arms auto-move when a ticket starts waiting and cancels it when accepted", () => {
  const created = ticket();
  assert.deepEqual(plan(undefined, created), { [moveTimerId(7)]: NOW + 5 * MIN });
  assert.deepEqual(plan(undefined, created, { conn: off }), {});
  assert.deepEqual(plan(undefined, ticket({ queueId: 20 })), {}, "created in the transfer queue");
  // A message on the pending ticket does not restart the wait.
  assert.deepEqual(plan(created, { ...created, latestCreatedAt: NOW }, { armed: { [moveTimerId(7)]: NOW + MIN } }), {});
  const accepted = { ...created, status: "open" as const, userId: 3, acceptedAt: NOW };
  assert.deepEqual(plan(created, accepted, { armed: { [moveTimerId(7)]: NOW + MIN } }), { [moveTimerId(7)]: null });
  // Returned to the queue: waits again from now.
  assert.deepEqual(plan(accepted, { ...accepted, status: "pending", userId: null }), { [moveTimerId(7)]: NOW + 5 * MIN });
});

Deno.test("planTicketTimers() arms auto-close lazily on company messages and cancels it on close", () => {
  const open = ticket({ status: "open", userId: 3, acceptedAt: NOW - 60_000, latestCreatedAt: NOW - 30_000 });
  const replied = { ...open, latestCreatedAt: NOW, lastFromMe: true };
  assert.deepEqual(plan(open, replied), { [closeTimerId(7)]: NOW + 30 * MIN });
  // Already armed for an earlier silence: no write; the fire re-arms for the rest.
  assert.deepEqual(plan(open, replied, { armed: { [closeTimerId(7)]: NOW + 10 * MIN } }), {});
  // Armed later than needed (the interval was shortened): re-armed earlier.
  assert.deepEqual(plan(open, replied, { armed: { [closeTimerId(7)]: NOW + 90 * MIN } }), { [closeTimerId(7)]: NOW + 30 * MIN });
  // The customer's message costs nothing either.
  const answered = { ...replied, latestCreatedAt: NOW + 1, lastFromMe: false };
  assert.deepEqual(plan(replied, answered, { armed: { [closeTimerId(7)]: NOW + 30 * MIN } }), {});
  const closed = { ...replied, status: "closed" as const, closedAt: NOW };
  assert.deepEqual(plan(replied, closed, { armed: { [closeTimerId(7)]: NOW + 30 * MIN } }), { [closeTimerId(7)]: null });
  assert.deepEqual(plan(replied, closed), {}, "nothing armed, nothing to cancel");
});

Deno.test("planTicketTimers() offers a ticket of a router queue at once and stops when it is taken", () => {
  const created = ticket();
  const offers = plan(undefined, created, { conn: off, queue: router });
  assert.deepEqual(offers, { [routeTimerId(7)]: NOW });
  // Offered (userId set, still pending): no new offer from the change itself.
  assert.deepEqual(plan(created, { ...created, userId: 3 }, { conn: off, queue: router }), {});
  // Moved to another queue while pending: offered there.
  assert.deepEqual(plan(created, { ...created, queueId: 11 }, { conn: off, queue: router }), { [routeTimerId(7)]: NOW });
  const accepted = { ...created, status: "open" as const, userId: 3 };
  assert.deepEqual(
    plan(created, accepted, { conn: off, queue: router, armed: { [routeTimerId(7)]: NOW + MIN } }),
    { [routeTimerId(7)]: null },
  );
  assert.deepEqual(plan(undefined, { ...created, isGroup: true }, { conn: off, queue: router }), {}, "groups");
});

Deno.test("nextInRotation() goes round the online users after the last pick, skipping the current one", () => {
  assert.equal(nextInRotation([5, 3, 9], undefined, null), 3);
  assert.equal(nextInRotation([5, 3, 9], 3, null), 5);
  assert.equal(nextInRotation([5, 3, 9], 9, null), 3, "wraps round");
  assert.equal(nextInRotation([5, 3, 9], 3, 5), 9, "the current user is skipped");
  assert.equal(nextInRotation([5], 5, 5), 5, "alone: offered again");
  assert.equal(nextInRotation([], 5, 5), null);
});
