import assert from "node:assert/strict";
import {
  DashboardQuery,
  defaultRange,
  HOUR_LABELS,
  HOUR_MS,
  hourOf,
  hourSpan,
  meanDuration,
  messageDelta,
  rebuiltDeltas,
  ticketDeltas,
  zoneOffset,
} from "./dashboard.ts";
import { buildTicket, type Ticket } from "./ticket.ts";

const T0 = Date.UTC(2026, 2, 10, 11, 0, 0); // 08:00 in São Paulo
const base = (patch: Partial<Ticket> = {}): Ticket => ({
  ...buildTicket({
    id: 1,
    uuid: "u1",
    companyId: 1,
    contactId: 5,
    whatsappId: 1,
    queueId: 2,
    userId: null,
    status: "pending",
    isGroup: false,
    channel: "whatsapp",
  }, T0),
  ...patch,
});
const metrics = (ds: { metric: string; value: number }[]) =>
  Object.fromEntries(ds.map((d) => [d.metric, d.value]));

Deno.test("hourOf() and hourSpan() widen a range to whole UTC hours", () => {
  assert.equal(hourOf(T0 + 59 * 60_000), hourOf(T0));
  assert.deepEqual(hourSpan(T0, T0 + 10 * HOUR_MS), [hourOf(T0), hourOf(T0) + 10]);
  assert.deepEqual(hourSpan(T0 + 1, T0 + HOUR_MS + 1), [hourOf(T0), hourOf(T0) + 2]);
  assert.deepEqual(hourSpan(T0, T0), [hourOf(T0), hourOf(T0)]);
});

Deno.test("defaultRange() is today 08:00–18:00 in the company's zone", () => {
  const [from, to] = defaultRange(T0 + 5 * HOUR_MS, "America/Sao_Paulo");
  assert.equal(new Date(from).toISOString(), "2026-03-10T11:00:00.000Z");
  assert.equal(new Date(to).toISOString(), "2026-03-10T21:00:00.000Z");
  // 01:30 UTC on the 11th is still the 10th in São Paulo.
  const [late] = defaultRange(Date.UTC(2026, 2, 11, 1, 30), "America/Sao_Paulo");
  assert.equal(new Date(late).toISOString(), "2026-03-10T11:00:00.000Z");
  assert.equal(zoneOffset(T0, "UTC"), 0);
});

Deno.test("HOUR_LABELS run 01:00 … 00:00", () => {
  assert.equal(HOUR_LABELS.length, 24);
  assert.equal(HOUR_LABELS[0], "01:00");
  assert.equal(HOUR_LABELS[23], "00:00");
});

Deno.test("meanDuration() splits the mean into hours, minutes and seconds", () => {
  assert.deepEqual(meanDuration(2 * (3600_000 + 61_000), 2), { hours: 1, minutes: 1, seconds: 1 });
  assert.deepEqual(meanDuration(0, 0), { hours: 0, minutes: 0, seconds: 0 });
});

Deno.test("ticketDeltas() counts a new ticket as created, and a lead when the contact is new", () => {
  const t = base();
  assert.deepEqual(metrics(ticketDeltas(undefined, t, T0, 0)), { created: 1, leads: 1 });
  assert.deepEqual(metrics(ticketDeltas(undefined, t, T0, 2)), { created: 1 });
  const open = base({ status: "open", userId: 7, acceptedAt: T0 });
  assert.deepEqual(metrics(ticketDeltas(undefined, open, T0, 1)), { created: 1, accepted: 1 });
});

Deno.test("ticketDeltas() measures waiting on the first acceptance only", () => {
  const pending = base();
  const at = T0 + 90_000;
  const accepted = { ...pending, status: "open" as const, userId: 7, acceptedAt: at };
  const ds = ticketDeltas(pending, accepted, at);
  assert.deepEqual(metrics(ds), { accepted: 1, waitSum: 90_000, waitCount: 1 });
  assert.ok(ds.every((d) => d.userId === 7 && d.queueId === 2 && d.at === at));
  const returned = { ...accepted, status: "pending" as const, userId: null };
  assert.deepEqual(ticketDeltas(accepted, returned, at + 1), []);
  const again = { ...returned, status: "open" as const, userId: 8, acceptedAt: at + 5000 };
  assert.deepEqual(metrics(ticketDeltas(returned, again, at + 5000)), { accepted: 1 });
});

Deno.test("ticketDeltas() counts a close with its service time and rating for the owner", () => {
  const open = base({ status: "open", userId: 7, acceptedAt: T0 });
  const closed = { ...open, status: "closed" as const, closedAt: T0 + 600_000, rating: 4 };
  const ds = ticketDeltas(open, closed, T0 + 600_000);
  assert.deepEqual(metrics(ds), { finished: 1, serviceSum: 600_000, serviceCount: 1, ratingSum: 4, ratingCount: 1 });
  assert.ok(ds.every((d) => d.userId === 7));
  // A pending ticket closed: finished with no user and no service time.
  const p = base();
  assert.deepEqual(metrics(ticketDeltas(p, { ...p, status: "closed", closedAt: T0 + 1 }, T0 + 1)), { finished: 1 });
  // A survey answer after the close counts as a rating, in the hour it arrives.
  const later = { ...closed, rating: 5, ratingId: 3 };
  const answer = ticketDeltas(closed, later, T0 + 2 * HOUR_MS);
  assert.deepEqual(metrics(answer), { ratingSum: 5, ratingCount: 1 });
  assert.equal(answer[0].at, T0 + 2 * HOUR_MS);
  // A note of a message changes nothing.
  assert.deepEqual(ticketDeltas(open, { ...open, lastMessage: "oi", unreadMessages: 1 }, T0), []);
  assert.deepEqual(ticketDeltas(open, undefined, T0), []);
});

Deno.test("messageDelta() counts sent and received with the ticket's queue and owner", () => {
  const t = base({ userId: 7 });
  assert.deepEqual(messageDelta(t, true, T0), { at: T0, queueId: 2, userId: 7, metric: "sent", value: 1 });
  assert.equal(messageDelta(t, false, T0).metric, "received");
});

Deno.test("rebuiltDeltas() recovers creation, latest acceptance, close and rating", () => {
  const t = base({
    status: "closed",
    userId: 7,
    acceptedAt: T0 + 1000,
    closedAt: T0 + 5000,
    rating: 3,
  });
  assert.deepEqual(metrics(rebuiltDeltas(t, true)), {
    created: 1,
    leads: 1,
    accepted: 1,
    waitSum: 1000,
    waitCount: 1,
    finished: 1,
    serviceSum: 4000,
    serviceCount: 1,
    ratingSum: 3,
    ratingCount: 1,
  });
});

Deno.test("DashboardQuery reads ISO dates, ms and id lists in several spellings", () => {
  const q = DashboardQuery.parse({
    date_from: "2026-03-10T08:00:00-03:00",
    date_to: String(T0 + HOUR_MS),
    queueIds: "[1,2]",
    userId: "7",
  });
  assert.equal(q.from, T0);
  assert.equal(q.to, T0 + HOUR_MS);
  assert.deepEqual(q.queueIds, [1, 2]);
  assert.deepEqual(q.userIds, [7]);
  assert.equal(DashboardQuery.parse({ startDate: "2026-03-10T11:00:00Z" }).from, T0);
  assert.equal(DashboardQuery.safeParse({ date_from: "nonsense" }).success, false);
});
