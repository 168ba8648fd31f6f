/**
 * Exactness of the dashboard's counters: a random history of 5,000 ticket events (new
 * tickets inbound and opened by staff, accepts, returns, transfers, closes with ratings,
 * reopens, messages both ways, deletes) is replayed through the real ticket desk with a fake
 * clock; every key of GET /dashboard's body (server/api/dashboard_view.ts) is then compared,
 * over many ranges and filters, with a brute-force count of the same history written from
 * the operations themselves (not from the desk's field changes). Then the desk is started
 * again on the same store: the counters read back from KV give the same answers.
 */
import assert from "node:assert/strict";
import { ActorSystem } from "../actors/_runtime/system.ts";
import { ticketDesk } from "../actors/tickets/actor.ts";
import { deskState } from "../actors/tickets/mod.ts";
import { HOUR_LABELS, HOUR_MS, meanDuration } from "../domain/dashboard.ts";
import type { Principal } from "../domain/permissions.ts";
import type { Ticket } from "../domain/ticket.ts";
import { dashboardView } from "../server/api/dashboard_view.ts";
import { DashboardQuery } from "../domain/dashboard.ts";

const COMPANY = 1;
const QUEUES = [11, 12, 13];
const USERS = [101, 102, 103, 104];
const CONTACTS = 400;
const EVENTS = 5_000;
const START = Date.UTC(2026, 0, 5, 3, 0, 0); // midnight in São Paulo (UTC−3, no daylight saving)
const ADMIN: Principal = { id: 1, companyId: COMPANY, profile: "admin", super: false, queueIds: [] };

/** One thing the history did, as the dashboard's definitions name it. */
interface Fact {
  kind: "created" | "accepted" | "finished" | "sent" | "received" | "wait" | "service" | "rating" | "lead";
  at: number;
  queueId: number | null;
  userId: number | null;
  value: number;
}

/** The test's own picture of a ticket. */
interface Model {
  id: number;
  contactId: number;
  status: "pending" | "open" | "closed";
  queueId: number | null;
  userId: number | null;
  createdAt: number;
  everTaken: boolean;
  takenAt: number | null;
  /** The customer has answered the survey of this ticket (one answer per ticket). */
  rated: boolean;
}

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function replay(system: ActorSystem, clock: { now: number }) {
  const random = rng(1818);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
  const desk = system.ref(ticketDesk, COMPANY);
  const facts: Fact[] = [];
  const tickets = new Map<number, Model>();
  const liveOfContact = new Map<number, number>();
  const fact = (kind: Fact["kind"], m: Model, userId: number | null, value = 1) =>
    facts.push({ kind, at: clock.now, queueId: m.queueId, userId, value });
  const active = (m: Model) => m.status !== "closed";
  const byStatus = (s: Model["status"]) => [...tickets.values()].filter((m) => m.status === s);
  const update = (m: Model, body: Record<string, unknown>) =>
    desk.ask("update", { id: m.id, body, who: ADMIN, settings: {} });

  for (let n = 0; n < EVENTS; n++) {
    clock.now += 1 + Math.floor(random() * 20 * 60_000);
    const roll = random();
    const pending = byStatus("pending");
    const open = byStatus("open");
    const closed = byStatus("closed");
    if (roll < 0.14 || tickets.size < 5) {
      // A new ticket: inbound (pending) or opened by staff; the contact must have no active one.
      const contactId = 1 + Math.floor(random() * CONTACTS);
      if ([...tickets.values()].some((m) => m.contactId === contactId && active(m))) continue;
      const staff = random() < 0.3;
      const queueId = random() < 0.2 ? null : pick(QUEUES);
      const userId = staff ? pick(USERS) : null;
      const fields = { contactId, whatsappId: 1, queueId, isGroup: false, channel: "whatsapp" };
      const t: Ticket = staff
        ? await desk.ask("create", { ...fields, userId, status: "open", who: ADMIN, settings: {} })
        : (await desk.ask("inbound", fields)).ticket;
      const m: Model = {
        id: t.id,
        contactId,
        status: staff ? "open" : "pending",
        queueId,
        userId,
        createdAt: clock.now,
        everTaken: staff,
        takenAt: staff ? clock.now : null,
        rated: false,
      };
      tickets.set(m.id, m);
      fact("created", m, userId);
      if (!liveOfContact.get(contactId)) fact("lead", m, userId);
      liveOfContact.set(contactId, (liveOfContact.get(contactId) ?? 0) + 1);
      if (staff) fact("accepted", m, userId);
    } else if (roll < 0.26 && pending.length) {
      const m = pick(pending);
      const userId = pick(USERS);
      await update(m, { status: "open", userId });
      if (!m.everTaken) fact("wait", m, userId, clock.now - m.createdAt);
      Object.assign(m, { status: "open", userId, everTaken: true, takenAt: clock.now });
      fact("accepted", m, userId);
    } else if (roll < 0.30 && open.length) {
      const m = pick(open);
      await update(m, { return: true });
      Object.assign(m, { status: "pending", userId: null });
    } else if (roll < 0.36 && (open.length || pending.length)) {
      const m = pick([...open, ...pending]);
      const queueId = pick(QUEUES);
      const userId = random() < 0.3 ? null : pick(USERS);
      if (queueId === m.queueId && userId === m.userId) continue;
      await update(m, { queueId, userId: userId ?? undefined, status: userId === null ? "pending" : "open" });
      const taken = userId !== null && (m.status === "pending" || m.userId !== userId);
      m.queueId = queueId;
      if (userId === null) Object.assign(m, { status: "pending", userId: null });
      else {
        if (taken) {
          if (!m.everTaken && m.status === "pending") fact("wait", m, userId, clock.now - m.createdAt);
          Object.assign(m, { everTaken: true, takenAt: clock.now });
          m.userId = userId;
          fact("accepted", m, userId);
        }
        Object.assign(m, { status: "open", userId });
      }
    } else if (roll < 0.46 && open.length) {
      const m = pick(open);
      await update(m, { status: "closed", sendFarewellMessage: false });
      fact("finished", m, m.userId);
      fact("service", m, m.userId, clock.now - m.takenAt!);
      m.status = "closed";
    } else if (roll < 0.50 && closed.some((m) => !m.rated)) {
      // The customer's survey answer (actors/ratings sets it on the closed ticket).
      const m = pick(closed.filter((m) => !m.rated));
      const rating = 1 + Math.floor(random() * 5);
      await desk.ask("rate", { id: m.id, ratingId: 1, rating });
      fact("rating", m, m.userId, rating);
      m.rated = true;
    } else if (roll < 0.53 && pending.length) {
      const m = pick(pending);
      await update(m, { status: "closed" });
      fact("finished", m, null);
      m.status = "closed";
    } else if (roll < 0.56 && closed.length) {
      const m = pick(closed);
      if ([...tickets.values()].some((o) => o.contactId === m.contactId && active(o))) continue;
      const userId = pick(USERS);
      await update(m, { status: "open", userId });
      Object.assign(m, { status: "open", userId, everTaken: true, takenAt: clock.now });
      fact("accepted", m, userId);
    } else if (roll < 0.58 && tickets.size > 10) {
      const m = pick([...tickets.values()]);
      await desk.ask("remove", { id: m.id, who: ADMIN, settings: {} });
      tickets.delete(m.id);
      liveOfContact.set(m.contactId, liveOfContact.get(m.contactId)! - 1);
    } else if (open.length || pending.length) {
      const m = pick([...open, ...pending]);
      const fromMe = m.status === "open" && random() < 0.5;
      await desk.ask("note", { id: m.id, preview: "oi", fromMe, at: clock.now, unread: !fromMe });
      fact(fromMe ? "sent" : "received", m, m.userId);
    }
  }
  return { facts, tickets };
}

/** The local hour (São Paulo, UTC−3) that `at` falls in. */
const slotOf = (at: number) => new Date(at - 3 * HOUR_MS).getUTCHours();

interface Filter {
  queues: number[] | null;
  users: number[] | null;
}

/** The brute-force answer for the facts in `[from, to)` that the filter keeps. */
function expected(facts: readonly Fact[], tickets: Map<number, Model>, from: number, to: number, f: Filter) {
  const keep = (x: { queueId: number | null; userId: number | null }) =>
    (!f.queues || f.queues.includes(x.queueId ?? 0)) && (!f.users || f.users.includes(x.userId ?? 0));
  const inRange = facts.filter((x) => x.at >= from && x.at < to && keep(x));
  const count = (kind: Fact["kind"]) => inRange.filter((x) => x.kind === kind).length;
  const sum = (kind: Fact["kind"]) => inRange.filter((x) => x.kind === kind).reduce((a, x) => a + x.value, 0);
  const group = (kind: Fact["kind"], by: "queueId" | "userId") => {
    const out = new Map<number | null, { n: number; sum: number; hours: number[] }>();
    for (const x of inRange) {
      if (x.kind !== kind) continue;
      const g = out.get(x[by]) ?? { n: 0, sum: 0, hours: new Array(24).fill(0) };
      g.n++;
      g.sum += x.value;
      g.hours[slotOf(x.at)]++;
      out.set(x[by], g);
    }
    return out;
  };
  const hours = (kind: Fact["kind"]) => {
    const h = new Array(24).fill(0);
    for (const x of inRange) if (x.kind === kind) h[slotOf(x.at)]++;
    return h;
  };
  const live = [...tickets.values()].filter((m) => m.status !== "closed" && keep(m));
  return { count, sum, group, hours, live };
}

type View = Awaited<ReturnType<typeof dashboardView>>;

/** Compares every key of `view` with the brute force. */
function check(view: View, e: ReturnType<typeof expected>, label: string) {
  const eq = (actual: unknown, wanted: unknown, key: string) =>
    assert.deepEqual(actual, wanted, `${label}: ${key}`);
  const asMap = <T>(rows: T[], id: (r: T) => number | null, val: (r: T) => unknown) =>
    new Map(rows.map((r) => [id(r), val(r)]));
  const groupMap = (kind: Fact["kind"], by: "queueId" | "userId", val: (g: { n: number; sum: number; hours: number[] }) => unknown) =>
    new Map([...e.group(kind, by)].map(([k, g]) => [k, val(g)]));

  eq(view.totalCreatedTicketsCount.count, e.count("created"), "totalCreatedTicketsCount.count");
  eq(view.totalCreatedTicketsCount.rows.map((r) => r.count), e.hours("created"), "totalCreatedTicketsCount.rows");
  eq(view.totalCreatedTicketsCount.rows.map((r) => r.hour), HOUR_LABELS, "hour labels");
  eq(view.totalStartedTicketsCount.count, e.count("accepted"), "totalStartedTicketsCount.count");
  eq(view.totalStartedTicketsCount.rows.map((r) => r.count), e.hours("accepted"), "totalStartedTicketsCount.rows");
  eq(view.finishedTicketCount.count, e.count("finished"), "finishedTicketCount.count");
  eq(view.finishedTicketCount.rows.map((r) => r.count), e.hours("finished"), "finishedTicketCount.rows");
  eq(view.sentMessagesCount, e.count("sent"), "sentMessagesCount");
  eq(view.receivedMessagesCount, e.count("received"), "receivedMessagesCount");
  eq(asMap(view.sentMessagesCountByUser, (r) => r.user.id, (r) => r.count), groupMap("sent", "userId", (g) => g.n), "sentMessagesCountByUser");
  eq(view.newLeads.count, e.count("lead"), "newLeads.count");
  eq(asMap(view.closedTicketsCountByQueue, (r) => r.queue.id, (r) => r.ticketCount), groupMap("finished", "queueId", (g) => g.n), "closedTicketsCountByQueue");
  eq(asMap(view.closedTicketsCountByUser, (r) => r.user.id, (r) => r.ticketCount), groupMap("finished", "userId", (g) => g.n), "closedTicketsCountByUser");
  eq(asMap(view.createdTicketsCountByQueue, (r) => r.queue.id, (r) => [r.ticketCount, r.createdAtArray]), groupMap("created", "queueId", (g) => [g.n, g.hours]), "createdTicketsCountByQueue");
  eq(asMap(view.startedTicketsCountByUser, (r) => r.user.id, (r) => [r.ticketCount, r.startedAtArray]), groupMap("accepted", "userId", (g) => [g.n, g.hours]), "startedTicketsCountByUser");
  eq(asMap(view.startedTicketsCountByQueue, (r) => r.queue.id, (r) => [r.ticketCount, r.startedAtArray]), groupMap("accepted", "queueId", (g) => [g.n, g.hours]), "startedTicketsCountByQueue");
  eq(view.averageWaitingTime, meanDuration(e.sum("wait"), e.count("wait")), "averageWaitingTime");
  eq(view.averageResponseTime, meanDuration(e.sum("service"), e.count("service")), "averageResponseTime");
  const dur = (g: { n: number; sum: number }) => ({ ...meanDuration(g.sum, g.n), count: g.n });
  const strip = <T extends { count: number; hours: number; minutes: number; seconds: number }>(r: T) =>
    ({ hours: r.hours, minutes: r.minutes, seconds: r.seconds, count: r.count });
  eq(asMap(view.averageWaitingTimeByUser, (r) => r.user.id, strip), groupMap("wait", "userId", dur), "averageWaitingTimeByUser");
  eq(asMap(view.averageWaitingTimeByQueue, (r) => r.queue.id, strip), groupMap("wait", "queueId", dur), "averageWaitingTimeByQueue");
  eq(asMap(view.averageResponseTimeByUser, (r) => r.user.id, strip), groupMap("service", "userId", dur), "averageResponseTimeByUser");
  eq(asMap(view.averageResponseTimeByQueue, (r) => r.queue.id, strip), groupMap("service", "queueId", dur), "averageResponseTimeByQueue");
  const round2 = (x: number) => Math.round(x * 100) / 100;
  eq(view.ratingsCount, e.count("rating"), "ratingsCount");
  eq(view.averageRating, e.count("rating") ? round2(e.sum("rating") / e.count("rating")) : 0, "averageRating");
  eq(asMap(view.averageRatingByUser, (r) => r.user.id, (r) => [r.averageRating, r.count]), groupMap("rating", "userId", (g) => [round2(g.sum / g.n), g.n]), "averageRatingByUser");
  eq(view.ratings.length, Math.min(20, e.count("rating")), "ratings rows");
  eq(view.hasMore, e.count("rating") > 20, "hasMore");
  // Live counts: the tickets open or pending now.
  const live = e.live;
  eq(view.openTicketsCount, live.filter((m) => m.status === "open").length, "openTicketsCount");
  eq(view.pendingTicketsCount, live.filter((m) => m.status === "pending").length, "pendingTicketsCount");
  eq(view.noQueueTicketsCount, live.filter((m) => m.queueId === null).length, "noQueueTicketsCount");
  const openBy = new Map<number | null, number>();
  for (const m of live) if (m.status === "open") openBy.set(m.userId, (openBy.get(m.userId) ?? 0) + 1);
  eq(asMap(view.openTicketsCountByUser, (r) => r.user.id, (r) => r.ticketCount), openBy, "openTicketsCountByUser");
  const byQueue = new Map<string, number>();
  for (const m of live) byQueue.set(`${m.queueId}:${m.status}`, (byQueue.get(`${m.queueId}:${m.status}`) ?? 0) + 1);
  eq(new Map(view.openPendingTicketsCountByQueue.map((r) => [`${r.queue.id}:${r.status}`, r.ticketCount])), byQueue, "openPendingTicketsCountByQueue");
  eq(view.onlineUser, { count: 0, rows: [] }, "onlineUser");
}

async function compareAll(system: ActorSystem, facts: Fact[], tickets: Map<number, Model>, end: number) {
  const random = rng(7);
  const filters: Filter[] = [
    { queues: null, users: null },
    { queues: [QUEUES[0]], users: null },
    { queues: null, users: [USERS[1]] },
    { queues: [QUEUES[1], QUEUES[2]], users: [USERS[0], USERS[3]] },
  ];
  const totalHours = Math.ceil((end - START) / HOUR_MS) + 1;
  const ranges: Array<[number, number]> = [[START, START + totalHours * HOUR_MS]];
  for (let i = 0; i < 12; i++) {
    const a = Math.floor(random() * totalHours);
    const len = 1 + Math.floor(random() * Math.min(30 * 24, totalHours - a));
    ranges.push([START + a * HOUR_MS, START + (a + len) * HOUR_MS]);
  }
  let compared = 0;
  for (const [from, to] of ranges) {
    for (const f of filters) {
      const q = DashboardQuery.parse({
        date_from: new Date(from).toISOString(),
        date_to: new Date(to).toISOString(),
        queueIds: f.queues ? JSON.stringify(f.queues) : undefined,
        userIds: f.users ? JSON.stringify(f.users) : undefined,
      });
      const view = await dashboardView(system, COMPANY, q, [], end);
      check(view, expected(facts, tickets, from, to, f), `${new Date(from).toISOString()}+${(to - from) / HOUR_MS}h ${JSON.stringify(f)}`);
      compared++;
    }
  }
  return compared;
}

Deno.test("dashboard counters equal a brute-force count of a random 5,000-event history, and survive a restart", async () => {
  const kv = await Deno.openKv(":memory:");
  const clock = { now: START };
  let system = new ActorSystem(kv, { now: () => clock.now });
  try {
    const { facts, tickets } = await replay(system, clock);
    assert.ok(facts.length > 3000, `history of ${facts.length} facts`);
    for (const kind of ["created", "accepted", "finished", "sent", "received", "wait", "service", "rating", "lead"]) {
      assert.ok(facts.some((f) => f.kind === kind), `history has ${kind}`);
    }
    const compared = await compareAll(system, facts, tickets, clock.now);
    assert.equal(compared, 52);

    // A new process on the same store reads the counters back from KV.
    await system.close();
    system = new ActorSystem(kv, { now: () => clock.now });
    const desk = await deskState(system, COMPANY);
    assert.ok(desk.dash.hours.size > 100);
    assert.equal(await compareAll(system, facts, tickets, clock.now), 52);
  } finally {
    await system.close();
    kv.close();
  }
});
