/**
 * The dashboard's numbers (spec 000 §2 Dashboard, §3 Dashboard response): what each one
 * counts, the hour buckets they are kept in, and the query. Pure; importable by islands.
 *
 * The ticket desk keeps, per company, per hour bucket (UTC hour since the epoch) and per
 * (queue, user) pair, counters that grow as events happen (actors/dashboard/). A request
 * sums the buckets of the hours it asks: its cost grows with hours, never with tickets.
 *
 * Definitions (the spec names the cards, not what they count; these are our readings):
 * - **created** ("Atendimentos Receptivos", totalCreatedTicketsCount): a ticket came into
 *   being (an inbound message opened it, or staff opened it), counted in the hour of its
 *   creation with the queue and user it had then.
 * - **accepted** ("Atendimentos Aceitos", started…): a user took the ticket: accept of a
 *   pending ticket, a ticket created open, a reopen, a transfer to another user. Counted in
 *   the hour it happened, with the queue and the user who took it. A ticket taken twice
 *   counts twice.
 * - **finished** ("Atendimentos Finalizados", closed…): the ticket was closed (resolved, or
 *   a pending ticket closed), in the hour it happened, with its queue and the user who had
 *   it (none for a pending ticket). Closed again after a reopen counts again.
 * - **sent** / **received** (Total de Msg Enviadas / Recebidas): a message stored on a
 *   ticket from the company's side (an agent, the bot, the company's own phone) / from the
 *   customer, in the hour of the message, with the ticket's queue and owner at that time.
 * - **waiting time** (averageWaitingTime, "Tempo Médio de Espera"): how long a customer
 *   waited for a person: from the ticket's creation to the first time a user took it.
 *   Measured once per ticket, in the hour of that first acceptance; a ticket created open
 *   by staff never waited and is not measured.
 * - **response time** (averageResponseTime, "Tempo Médio de Atendimento"): how long the
 *   service took: from the moment a user took the ticket (its latest acceptance) to its
 *   close, measured when an open ticket is resolved, in that hour, with the resolving
 *   owner. The spec's key says "response", its card says "atendimento" (service): we
 *   measure what the card shows.
 * - **new lead** ("Novos Leads"): a contact reached the company for the first time: its
 *   first ticket was created (the contact had no other ticket), in that hour.
 * - **rating** ("Avaliações"): a numeric rating (`rating`) reached a closed ticket (given
 *   on close, or the customer's survey answer later), in the hour it arrived, with the user
 *   who had the ticket; the average is the mean of those values. A new answer counts again.
 * - **open / pending / no queue** ("Em atendimento", "Aguardando atendimento", "Atendimentos
 *   sem fila", "Atendimentos Abertos"): the tickets in that state now, whatever the range
 *   (a snapshot, like the inbox's counters).
 *
 * Buckets are whole UTC hours, so a range is widened to whole hours: an hour counts when it
 * starts before `date_to` and ends after `date_from`. In a time zone with a half-hour offset
 * the local hour's half belongs to its neighbour bucket.
 */
import { z } from "zod";
import { IdList } from "./ticket_query.ts";
import { MAX, MSG } from "./text.ts";
import type { Ticket } from "./ticket.ts";

export const HOUR_MS = 3_600_000;

/** The counters kept per bucket and pair, in this order (an index is a metric). */
export const METRICS = [
  "created",
  "accepted",
  "finished",
  "sent",
  "received",
  "waitSum",
  "waitCount",
  "serviceSum",
  "serviceCount",
  "ratingSum",
  "ratingCount",
  "leads",
] as const;
export type Metric = typeof METRICS[number];
/** Index of each metric in a bucket's counters. */
export const M = Object.fromEntries(METRICS.map((m, i) => [m, i])) as Record<Metric, number>;
/** How many metrics a pair keeps per bucket. */
export const METRIC_COUNT = METRICS.length;

/** The metrics that also get a line chart by hour of day (in this order). */
export const HOURLY_METRICS = ["created", "accepted", "finished"] as const;

/** One increment: `value` added to `metric` in the hour of `at` for the (queue, user) pair. */
export interface DashDelta {
  at: number;
  queueId: number | null;
  userId: number | null;
  metric: Metric;
  value: number;
}

/** The UTC hour bucket of an instant. */
export function hourOf(ms: number): number {
  return Math.floor(ms / HOUR_MS);
}

/** The hour buckets `[first, end)` that a range `[from, to)` touches (see the module doc). */
export function hourSpan(from: number, to: number): [number, number] {
  const first = hourOf(from);
  return [first, Math.max(first, Math.ceil(to / HOUR_MS))];
}

/**
 * The increments a ticket change makes (see the module doc): `before` is undefined for a
 * new ticket, `next` undefined for a deleted one (a delete undoes no history: nothing).
 * `otherTickets` is how many other tickets the contact already has (for new leads).
 */
export function ticketDeltas(
  before: Ticket | undefined,
  next: Ticket | undefined,
  now: number,
  otherTickets = 1,
): DashDelta[] {
  if (!next) return [];
  const out: DashDelta[] = [];
  const add = (metric: Metric, at: number, userId: number | null, value = 1) =>
    out.push({ at, queueId: next.queueId, userId, metric, value });
  if (!before) {
    add("created", next.createdAt, next.userId);
    if (otherTickets === 0) add("leads", next.createdAt, next.userId);
  }
  const taken = next.status === "open" && next.userId !== null && next.acceptedAt !== null &&
    next.acceptedAt !== before?.acceptedAt;
  if (taken) {
    const at = next.acceptedAt!;
    add("accepted", at, next.userId);
    if (before && before.acceptedAt === null && before.status === "pending") {
      add("waitSum", at, next.userId, Math.max(0, at - next.createdAt));
      add("waitCount", at, next.userId);
    }
  }
  const closing = next.status === "closed" && before?.status !== "closed";
  const closedAt = closing ? next.closedAt ?? now : now;
  const closer = before?.userId ?? next.userId;
  if (closing) {
    add("finished", closedAt, closer);
    if (before?.status === "open" && before.acceptedAt !== null) {
      add("serviceSum", closedAt, closer, Math.max(0, closedAt - before.acceptedAt));
      add("serviceCount", closedAt, closer);
    }
  }
  // The customer's answer sets `rating` on the closed ticket (actors/ratings: one answer per
  // ticket); a resolve or a reopen keeps an older one, which does not count again.
  const rated = next.status === "closed" && next.rating !== null && before?.rating !== next.rating;
  if (rated) {
    add("ratingSum", closedAt, closer, next.rating!);
    add("ratingCount", closedAt, closer);
  }
  return out;
}

/** The increment of one message stored on `ticket` (see the module doc). */
export function messageDelta(
  ticket: Pick<Ticket, "queueId" | "userId">,
  fromMe: boolean,
  at: number,
): DashDelta {
  return { at, queueId: ticket.queueId, userId: ticket.userId, metric: fromMe ? "sent" : "received", value: 1 };
}

/**
 * What a rebuild from stored records can recover of a ticket's history: its creation, its
 * latest acceptance (waiting measured from creation, as if it were the first), its close
 * with the service time since that acceptance, and its rating. A ticket taken or closed
 * several times counts once; events since a rebuild count exactly.
 */
export function rebuiltDeltas(t: Ticket, firstOfContact: boolean): DashDelta[] {
  const out: DashDelta[] = [];
  const add = (metric: Metric, at: number, userId: number | null, value = 1) =>
    out.push({ at, queueId: t.queueId, userId, metric, value });
  add("created", t.createdAt, t.userId);
  if (firstOfContact) add("leads", t.createdAt, t.userId);
  if (t.acceptedAt !== null && t.userId !== null) {
    add("accepted", t.acceptedAt, t.userId);
    if (t.acceptedAt > t.createdAt) {
      add("waitSum", t.acceptedAt, t.userId, t.acceptedAt - t.createdAt);
      add("waitCount", t.acceptedAt, t.userId);
    }
  }
  if (t.status === "closed" && t.closedAt !== null) {
    add("finished", t.closedAt, t.userId);
    if (t.acceptedAt !== null && t.acceptedAt <= t.closedAt) {
      add("serviceSum", t.closedAt, t.userId, t.closedAt - t.acceptedAt);
      add("serviceCount", t.closedAt, t.userId);
    }
    if (t.rating !== null) {
      add("ratingSum", t.closedAt, t.userId, t.rating);
      add("ratingCount", t.closedAt, t.userId);
    }
  }
  return out;
}

/** A duration as the cards show it. */
export interface Duration {
  hours: number;
  minutes: number;
  seconds: number;
}

/** The mean of `sum` ms over `count` as hours, minutes and seconds (zeros when none). */
export function meanDuration(sum: number, count: number): Duration {
  const total = count > 0 ? Math.round(sum / count / 1000) : 0;
  return {
    hours: Math.floor(total / 3600),
    minutes: Math.floor((total % 3600) / 60),
    seconds: total % 60,
  };
}

/**
 * The 24 labels of the hourly charts (spec 000 §2: 01:00 … 00:00). Slot `i` holds the local
 * hour that starts at `i`:00 and is labelled by its end, so the points run in time order.
 */
export const HOUR_LABELS: readonly string[] = Array.from(
  { length: 24 },
  (_, i) => `${String((i + 1) % 24).padStart(2, "0")}:00`,
);

/** Formatters by time zone (building one costs ≈ 0.1 ms; they are immutable). */
const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * Offsets at whole-hour instants by zone and hour: a dashboard request asks two (its span's
 * ends), each a formatToParts of ≈ 50 µs, and an instant's offset never changes. Bounded.
 */
const hourOffsets = new Map<string, number>();

/** The zone's offset from UTC at `ms`, in ms (local wall clock = UTC + offset). */
export function zoneOffset(ms: number, timeZone: string): number {
  if (ms % HOUR_MS !== 0) return askOffset(ms, timeZone);
  const key = `${timeZone}|${ms}`;
  let offset = hourOffsets.get(key);
  if (offset === undefined) {
    if (hourOffsets.size >= 10_000) hourOffsets.clear();
    hourOffsets.set(key, offset = askOffset(ms, timeZone));
  }
  return offset;
}

function askOffset(ms: number, timeZone: string): number {
  let format = offsetFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    offsetFormats.set(timeZone, format);
  }
  const p: Record<string, number> = {};
  for (const part of format.formatToParts(new Date(ms))) p[part.type] = Number(part.value);
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return wall - Math.floor(ms / 1000) * 1000;
}

/** The instant of local wall-clock time `y-m-d h:00` in the zone. */
export function zonedTime(y: number, month: number, d: number, h: number, timeZone: string): number {
  const guess = Date.UTC(y, month - 1, d, h);
  const first = guess - zoneOffset(guess, timeZone);
  return guess - zoneOffset(first, timeZone);
}

/** The default range of spec 000 §9: today 08:00 to 18:00 in the company's zone. */
export function defaultRange(now: number, timeZone: string): [number, number] {
  const local = new Date(now + zoneOffset(now, timeZone));
  const [y, m, d] = [local.getUTCFullYear(), local.getUTCMonth() + 1, local.getUTCDate()];
  return [zonedTime(y, m, d, 8, timeZone), zonedTime(y, m, d, 18, timeZone)];
}

/** A date-time query value: ISO text (with or without zone) or ms; absent when blank. */
const DateTime = z.preprocess(
  (v) => (v === "" || v === "null" || v === "undefined" ? undefined : v),
  z.union([
    z.coerce.number().int().positive(),
    z.string().max(MAX.date, MSG.tooLong).refine((s) => !Number.isNaN(Date.parse(s)), "Expected a date-time").transform(Date.parse),
  ]).optional(),
);

/** Longest range one request may ask (a year of hours). */
export const MAX_RANGE_MS = 366 * 24 * HOUR_MS;

/** Rows per page of the ratings table and the new leads list. */
export const ROWS_PAGE = 20;

/**
 * GET /dashboard query: `date_from`, `date_to` (date-time; default today 08:00–18:00 in the
 * company's zone), queue and user filters (`queueIds`/`userIds` as JSON arrays or
 * comma lists; `queueId`/`userId` for one), and the ratings table's `pageNumber`.
 * `startDate`/`endDate` are the export calls' names for the same range (spec 000 §7).
 */
export const DashboardQuery = z.object({
  date_from: DateTime,
  date_to: DateTime,
  startDate: DateTime,
  endDate: DateTime,
  queueIds: IdList.optional(),
  queueId: IdList.optional(),
  userIds: IdList.optional(),
  userId: IdList.optional(),
  pageNumber: z.coerce.number().int().min(1).catch(1).default(1),
}).transform((q) => ({
  from: q.date_from ?? q.startDate,
  to: q.date_to ?? q.endDate,
  queueIds: [...q.queueIds ?? [], ...q.queueId ?? []],
  userIds: [...q.userIds ?? [], ...q.userId ?? []],
  pageNumber: q.pageNumber,
}));
export type DashboardQuery = z.infer<typeof DashboardQuery>;

/** A user or queue as the breakdowns name it (`id` null: none). */
export interface DashRef {
  id: number | null;
  name: string;
  color?: string;
}

/** One point of an hourly chart. */
export interface HourPoint {
  hour: string;
  count: number;
}

/** A rating row of the dashboard's table (Nota, Atendente, Data, Cliente, Número, link). */
export interface RatingRow {
  rate: number;
  user: DashRef | null;
  createdAt: string;
  contact: { id: number; name: string; number: string } | null;
  ticket: { id: number; uuid: string } | null;
}

/** A duration with the pair it belongs to. */
export type DurationBy<K extends string> = Duration & { [P in K]: DashRef } & { count: number };

/** GET /dashboard's body: every key of spec 000 §3 "Dashboard response", plus the range. */
export interface DashboardResponse {
  dateFrom: string;
  dateTo: string;
  /** The company's zone (setting `timezone`): the pickers, charts and dates are in it (#41). */
  timeZone: string;
  /**
   * Tickets created, accepted and finished over the company's whole local day of `dateFrom`
   * (same filters), so the page can say when the range is empty but the day is not (#41).
   */
  dayActivity: { created: number; accepted: number; finished: number };
  openTicketsCount: number;
  pendingTicketsCount: number;
  noQueueTicketsCount: number;
  finishedTicketCount: { count: number; rows: HourPoint[] };
  sentMessagesCount: number;
  sentMessagesCountByUser: Array<{ user: DashRef; count: number }>;
  receivedMessagesCount: number;
  onlineUser: { count: number; rows: Array<{ id: number; name: string; online: boolean }> };
  newLeads: { count: number; rows: Array<{ id: number; name: string; number: string; createdAt: string }> };
  openTicketsCountByUser: Array<{ user: DashRef; ticketCount: number }>;
  openPendingTicketsCountByQueue: Array<{ queue: DashRef; status: "open" | "pending"; ticketCount: number }>;
  closedTicketsCountByQueue: Array<{ queue: DashRef; ticketCount: number }>;
  closedTicketsCountByUser: Array<{ user: DashRef; ticketCount: number }>;
  createdTicketsCountByQueue: Array<{ queue: DashRef; createdAtArray: number[]; ticketCount: number }>;
  startedTicketsCountByUser: Array<{ user: DashRef; startedAtArray: number[]; ticketCount: number }>;
  startedTicketsCountByQueue: Array<{ queue: DashRef; startedAtArray: number[]; ticketCount: number }>;
  totalCreatedTicketsCount: { count: number; rows: HourPoint[] };
  totalStartedTicketsCount: { count: number; rows: HourPoint[] };
  averageResponseTime: Duration;
  averageResponseTimeByUser: DurationBy<"user">[];
  averageResponseTimeByQueue: DurationBy<"queue">[];
  averageWaitingTime: Duration;
  averageWaitingTimeByUser: DurationBy<"user">[];
  averageWaitingTimeByQueue: DurationBy<"queue">[];
  ratings: RatingRow[];
  ratingsCount: number;
  averageRating: number;
  averageRatingByUser: Array<{ user: DashRef; averageRating: number; count: number }>;
  /** More rating rows follow (next `pageNumber`). */
  hasMore: boolean;
}
