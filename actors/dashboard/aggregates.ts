/**
 * The dashboard's counters of one company (domain/dashboard.ts says what each counts), kept
 * by the ticket desk: in memory for reads, and in KV as one `Deno.KvU64` per (hour, queue,
 * user, metric), `["dash", companyId, hour, queueKey, userKey, metric]`. The desk adds an
 * event's increments with `ctx.sum` in the same unit as the ticket write that caused it, so
 * they land in the same atomic (group commit); sums of one key commute, so no read and no
 * version check is needed however many changes share a commit.
 *
 * On activation the desk lists the company's counters; when the marker
 * `["dash_built", companyId]` is missing (a store older than the counters, or a seeder that
 * wrote records directly) they are rebuilt once from the tickets and one scan of the
 * messages (domain `rebuiltDeltas`: a rebuild can only recover each ticket's latest
 * acceptance and close, and attributes messages to the ticket's current queue and owner).
 *
 * The rows of the new leads list and the ratings table are records of their own,
 * `["dash_row", companyId, "leads" | "ratings", at, ticketId] → DashRow`, written in the
 * same unit as the event (a rebuild derives them from the tickets); the counts come from
 * the counters.
 */
import {
  type DashDelta,
  HOURLY_METRICS,
  hourOf,
  M,
  METRIC_COUNT,
  METRICS,
  rebuiltDeltas,
} from "../../domain/dashboard.ts";
import type { Ticket } from "../../domain/ticket.ts";
import { DashRows } from "./rows.ts";
import { SumsCache } from "./sums_cache.ts";
import { storedMessage } from "../messages/stored.ts";

/** Version of the counters' meaning; a different marker rebuilds them. */
const BUILT_VERSION = 1;

/** The key of one counter. */
export function dashKey(
  companyId: number,
  hour: number,
  queueKey: number,
  userKey: number,
  metric: number,
): Deno.KvKey {
  return ["dash", companyId, hour, queueKey, userKey, metric];
}

/** The prefix of a company's counters. */
export function dashPrefix(companyId: number): Deno.KvKey {
  return ["dash", companyId];
}

/** The marker that says the company's counters are built (value: BUILT_VERSION). */
export function dashBuiltKey(companyId: number): Deno.KvKey {
  return ["dash_built", companyId];
}

/**
 * One (queue, user) pair's counters in one hour or one UTC day; 0 stands for "none". `qi` and
 * `ui` are the pair's dense indexes (`DashAggregates.queueKeys`/`userKeys`), so a read sums
 * into flat arrays with no map lookup per cell. A day cell also keeps the HOURLY_METRICS by
 * UTC hour of the day in `hod` (`[k * 24 + utcHour]`).
 */
export interface Cell {
  readonly queueKey: number;
  readonly userKey: number;
  readonly qi: number;
  readonly ui: number;
  readonly v: Float64Array;
  readonly hod?: Float64Array;
}

/**
 * One hour's (or day's) cells, in first-seen order, with a map to find a pair's cell; and
 * the same counters summed over queues per user (`users`, their `queueKey` and `qi` -1) and
 * over users per queue (`queues`, `userKey` and `ui` -1). An unfiltered read sums those
 * (users + queues per bucket, ~27 here) instead of every pair (~126): the 30-day dashboard's
 * sums cost 4.7 times fewer cells. They live in memory only (derived on every add).
 */
export interface HourCells {
  readonly cells: Cell[];
  readonly byPair: Map<number, Cell>;
  readonly users: Cell[];
  readonly byUser: Map<number, Cell>;
  readonly queues: Cell[];
  readonly byQueue: Map<number, Cell>;
}

/** A row of the new leads list or the ratings table, ordered by `at`. */
export interface DashRow {
  at: number;
  ticketId: number;
  contactId: number;
  queueKey: number;
  userKey: number;
  /** The rating (ratings rows). */
  rate: number;
}

/** The key of a row of the leads list or the ratings table. */
export function dashRowKey(companyId: number, list: RowList, row: DashRow): Deno.KvKey {
  return ["dash_row", companyId, list, row.at, row.ticketId];
}

/** The two row lists. */
export type RowList = "leads" | "ratings";

/** A pair as one number (user ids stay far below 10^7). */
function pairOf(queueKey: number, userKey: number): number {
  return queueKey * 10_000_000 + userKey;
}

function indexOf(index: Map<number, number>, keys: number[], key: number): number {
  let i = index.get(key);
  if (i === undefined) {
    i = keys.length;
    keys.push(key);
    index.set(key, i);
  }
  return i;
}

/** The bucket at `at`, made empty when missing. */
function bucketOf(map: Map<number, HourCells>, at: number): HourCells {
  let h = map.get(at);
  if (!h) {
    map.set(at, h = { cells: [], byPair: new Map(), users: [], byUser: new Map(), queues: [], byQueue: new Map() });
  }
  return h;
}

/**
 * Where cells' counters live: views into shared blocks of 64k numbers. A Float64Array of its
 * own per cell also cost an ArrayBuffer and a native backing store each, about 40,000 of each
 * for a month of 100k tickets, all walked by every full collection (issue #23 §2: the
 * open-loop stalls are the major GC's marking); a view is one object.
 */
class Slab {
  #block = new Float64Array(0);
  #used = 0;

  /** `n` zeros of their own. */
  take(n: number): Float64Array {
    if (this.#used + n > this.#block.length) {
      this.#block = new Float64Array(Math.max(65_536, n));
      this.#used = 0;
    }
    return this.#block.subarray(this.#used, this.#used += n);
  }
}

/** The cell of `key` in one of a bucket's lists, made (zeros) when missing. */
function cellIn(
  list: Cell[],
  map: Map<number, Cell>,
  key: number,
  queueKey: number,
  userKey: number,
  qi: number,
  ui: number,
  day: boolean,
  slab: Slab,
): Cell {
  let cell = map.get(key);
  if (!cell) {
    cell = {
      queueKey,
      userKey,
      qi,
      ui,
      v: slab.take(METRIC_COUNT),
      hod: day ? slab.take(HOURLY_METRICS.length * 24) : undefined,
    };
    list.push(cell);
    map.set(key, cell);
  }
  return cell;
}

/** Adds `value` to `metric` (and its hour of the day `slot` in a day bucket) in a pair's cell and its two sums. */
function bump(
  b: HourCells,
  day: boolean,
  queueKey: number,
  userKey: number,
  qi: number,
  ui: number,
  metric: number,
  value: number,
  slot: number,
  slab: Slab,
): void {
  const pair = cellIn(b.cells, b.byPair, pairOf(queueKey, userKey), queueKey, userKey, qi, ui, day, slab);
  const user = cellIn(b.users, b.byUser, userKey, -1, userKey, -1, ui, day, slab);
  const queue = cellIn(b.queues, b.byQueue, queueKey, queueKey, -1, qi, -1, day, slab);
  pair.v[metric] += value;
  user.v[metric] += value;
  queue.v[metric] += value;
  if (day && slot >= 0) {
    pair.hod![slot] += value;
    user.hod![slot] += value;
    queue.hod![slot] += value;
  }
}

/** Where each hourly metric sits in a day cell's `hod` (-1: not hourly). */
const HOURLY_SLOT = Array.from({ length: METRIC_COUNT }, (_, m) => HOURLY_METRICS.findIndex((h) => M[h] === m));

/** A company's counters in memory; see the module doc. */
export class DashAggregates {
  readonly hours = new Map<number, HourCells>();
  /** The same counters per UTC day (hour ÷ 24): a month is summed from 30 cells per pair, not 720. */
  readonly days = new Map<number, HourCells>();
  readonly leads = new DashRows();
  readonly ratings = new DashRows();
  /** Dense index → queue key and user key (0 = none first). */
  readonly queueKeys: number[] = [0];
  readonly userKeys: number[] = [0];
  readonly #queueIndex = new Map<number, number>([[0, 0]]);
  readonly #userIndex = new Map<number, number>([[0, 0]]);
  /** The sums of recently asked spans, kept up to date by `add` (sums_cache.ts). */
  readonly sums = new SumsCache();
  readonly #slab = new Slab();

  /** Adds `value` to a counter (in memory only), in its hour and its day. */
  add(hour: number, queueKey: number, userKey: number, metric: number, value: number): void {
    const known = this.queueKeys.length + this.userKeys.length;
    const qi = indexOf(this.#queueIndex, this.queueKeys, queueKey);
    const ui = indexOf(this.#userIndex, this.userKeys, userKey);
    if (this.queueKeys.length + this.userKeys.length !== known) this.sums.clear();
    const k = HOURLY_SLOT[metric];
    const slot = k >= 0 ? k * 24 + (((hour % 24) + 24) % 24) : -1;
    bump(bucketOf(this.hours, hour), false, queueKey, userKey, qi, ui, metric, value, slot, this.#slab);
    bump(bucketOf(this.days, Math.floor(hour / 24)), true, queueKey, userKey, qi, ui, metric, value, slot, this.#slab);
    this.sums.note(hour, qi, ui, metric, k, value, METRIC_COUNT);
  }

  /** Adds the rows an event makes (a new lead, a rating) for `ticket`; returns them. */
  addRows(deltas: readonly DashDelta[], ticket: Ticket): Array<[RowList, DashRow]> {
    const added: Array<[RowList, DashRow]> = [];
    for (const d of deltas) {
      if (d.metric !== "leads" && d.metric !== "ratingCount") continue;
      const row: DashRow = {
        at: d.at,
        ticketId: ticket.id,
        contactId: ticket.contactId,
        queueKey: d.queueId ?? 0,
        userKey: d.userId ?? 0,
        rate: ticket.rating ?? 0,
      };
      const list: RowList = d.metric === "leads" ? "leads" : "ratings";
      this[list].insert(row);
      added.push([list, row]);
    }
    return added;
  }

  /** Builds the rows from the stored tickets (on activation). */
  rowsFrom(tickets: Iterable<Ticket>): void {
    const first = new Map<number, Ticket>();
    for (const t of tickets) {
      const seen = first.get(t.contactId);
      if (!seen || t.createdAt < seen.createdAt) first.set(t.contactId, t);
      if (t.status === "closed" && t.rating !== null && t.closedAt !== null) {
        this.ratings.push(rowOf(t, t.closedAt));
      }
    }
    for (const t of first.values()) this.leads.push(rowOf(t, t.createdAt));
    this.leads.sortByTime();
    this.ratings.sortByTime();
  }
}

function rowOf(t: Ticket, at: number): DashRow {
  return {
    at,
    ticketId: t.id,
    contactId: t.contactId,
    queueKey: t.queueId ?? 0,
    userKey: t.userId ?? 0,
    rate: t.rating ?? 0,
  };
}

/** What a handler records: `sum` of its context (structural, so this module needs no actor type). */
export interface Summer {
  sum(key: Deno.KvKey, n: number): void;
  set(key: Deno.KvKey, value: unknown): void;
}

/**
 * Applies increments in memory and records them as KV sums in the caller's unit (the desk's
 * handler), and the rows they make. Non-integer values (none today) are rounded for KV.
 */
export function recordDeltas(
  dash: DashAggregates,
  ctx: Summer,
  companyId: number,
  deltas: readonly DashDelta[],
  ticket?: Ticket,
): void {
  if (deltas.length === 0) return;
  for (const d of deltas) {
    const hour = hourOf(d.at);
    const q = d.queueId ?? 0;
    const u = d.userId ?? 0;
    const metric = M[d.metric];
    const value = Math.max(0, Math.round(d.value));
    dash.add(hour, q, u, metric, value);
    ctx.sum(dashKey(companyId, hour, q, u, metric), value);
  }
  if (!ticket) return;
  for (const [list, row] of dash.addRows(deltas, ticket)) ctx.set(dashRowKey(companyId, list, row), row);
}

/** Writes counters in atomics of this many sets during a rebuild. */
const REBUILD_BATCH = 500;

/**
 * The company's counters: listed from KV, or rebuilt (see the module doc) when the marker is
 * missing. `tickets` are every stored ticket of the company (the desk has just loaded them).
 */
export async function loadAggregates(
  kv: Deno.Kv,
  companyId: number,
  tickets: readonly Ticket[],
): Promise<DashAggregates> {
  const dash = new DashAggregates();
  const built = await kv.get<number>(dashBuiltKey(companyId));
  if (built.value === BUILT_VERSION) {
    for await (const e of kv.list<DashRow>({ prefix: ["dash_row", companyId] }, { batchSize: 1000 })) {
      (e.key[2] === "leads" ? dash.leads : dash.ratings).push(e.value);
    }
    for await (const e of kv.list<Deno.KvU64>({ prefix: dashPrefix(companyId) }, { batchSize: 1000 })) {
      const [, , hour, q, u, metric] = e.key as [string, number, number, number, number, number];
      if (metric < METRICS.length) dash.add(hour, q, u, metric, Number(e.value.value));
    }
    return dash;
  }
  await rebuild(kv, companyId, tickets, dash);
  return dash;
}

async function rebuild(
  kv: Deno.Kv,
  companyId: number,
  tickets: readonly Ticket[],
  dash: DashAggregates,
): Promise<void> {
  const started = Date.now();
  dash.rowsFrom(tickets);
  const firstOf = new Map<number, Ticket>();
  for (const t of tickets) {
    const seen = firstOf.get(t.contactId);
    if (!seen || t.createdAt < seen.createdAt) firstOf.set(t.contactId, t);
  }
  const firsts = new Set(firstOf.values());
  const byId = new Map<number, Ticket>();
  for (const t of tickets) {
    byId.set(t.id, t);
    for (const d of rebuiltDeltas(t, firsts.has(t))) {
      dash.add(hourOf(d.at), d.queueId ?? 0, d.userId ?? 0, M[d.metric], d.value);
    }
  }
  // Messages stored from now on are noted through the desk, which is loading: only older
  // ones are counted here.
  for await (const e of kv.list({ prefix: ["message", companyId] }, { batchSize: 1000 })) {
    const m = storedMessage(e.value);
    if (m.createdAt >= started) continue;
    const t = byId.get(m.ticketId);
    dash.add(hourOf(m.createdAt), t?.queueId ?? 0, t?.userId ?? 0, m.fromMe ? M.sent : M.received, 1);
  }
  // Counters of an older meaning (or of a rebuild cut short) go first; then sets, not sums.
  let atomic = kv.atomic();
  let n = 0;
  const step = async () => {
    if (++n % REBUILD_BATCH === 0) {
      await commitOrThrow(atomic);
      atomic = kv.atomic();
    }
  };
  for (const prefix of [dashPrefix(companyId), ["dash_row", companyId]]) {
    for await (const e of kv.list({ prefix }, { batchSize: 1000 })) {
      atomic.delete(e.key);
      await step();
    }
  }
  for (const list of ["leads", "ratings"] as const) {
    for (const row of dash[list]) {
      atomic.set(dashRowKey(companyId, list, row), row);
      await step();
    }
  }
  for (const [hour, h] of dash.hours) {
    for (const cell of h.cells) {
      for (let metric = 0; metric < METRIC_COUNT; metric++) {
        if (cell.v[metric] === 0) continue;
        const key = dashKey(companyId, hour, cell.queueKey, cell.userKey, metric);
        atomic.set(key, new Deno.KvU64(BigInt(Math.round(cell.v[metric]))));
        await step();
      }
    }
  }
  atomic.set(dashBuiltKey(companyId), BUILT_VERSION);
  await commitOrThrow(atomic);
}

async function commitOrThrow(atomic: Deno.AtomicOperation): Promise<void> {
  const result = await atomic.commit();
  if (!result.ok) throw new Error("Dashboard rebuild: KV refused an atomic");
}
