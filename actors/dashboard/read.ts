/**
 * Reads of the dashboard's counters: the sums over a span of hour buckets (cost: hours ×
 * the pairs active in them, never the tickets), the live open/pending counts from the desk's
 * lists, and the rows of a range. Pure over the in-memory structures; no KV.
 */
import { HOURLY_METRICS, M, METRIC_COUNT } from "../../domain/dashboard.ts";
import type { TicketIndex } from "../tickets/index.ts";
import { NO_QUEUE } from "../tickets/index.ts";
import type { Cell, DashAggregates, DashRow, HourCells } from "./aggregates.ts";
import type { DashRows } from "./rows.ts";
import type { FlatSums } from "./sums_cache.ts";

/** Which pairs a request keeps: null keeps all; 0 in a set stands for "none". */
export interface PairFilter {
  queues: ReadonlySet<number> | null;
  users: ReadonlySet<number> | null;
}

/** Hourly slots per entity: HOURLY_METRICS × 24 local hours. */
const HOURLY = HOURLY_METRICS.length * 24;
const HOURLY_INDEX = HOURLY_METRICS.map((m) => M[m]);

/** Sums of a span: totals, per user, per queue, and per local hour of the day. */
export interface DashSums {
  total: Float64Array;
  byUser: Map<number, Float64Array>;
  byQueue: Map<number, Float64Array>;
  /** `[k * 24 + slot]`: metric HOURLY_METRICS[k] in local hour `slot`. */
  hourly: Float64Array;
  hourlyByUser: Map<number, Float64Array>;
  hourlyByQueue: Map<number, Float64Array>;
}

/**
 * Adds one cell into the sums it feeds: the totals (`all`), its user's, its queue's. An hour
 * cell's hourly metrics go to local hour `slot`; a day cell's (slot -1) come from its UTC
 * hours of the day `h`, to local hour `rot[h]`.
 */
function addCell(a: FlatSums, cell: Cell, all: boolean, user: boolean, queue: boolean, slot: number, rot: Int32Array): void {
  const v = cell.v;
  const u = cell.ui * METRIC_COUNT;
  const q = cell.qi * METRIC_COUNT;
  for (let m = 0; m < METRIC_COUNT; m++) {
    const x = v[m];
    if (x === 0) continue;
    if (all) a.total[m] += x;
    if (user) a.byUser[u + m] += x;
    if (queue) a.byQueue[q + m] += x;
  }
  const hu = cell.ui * HOURLY;
  const hq = cell.qi * HOURLY;
  const { hourly, hByUser, hByQueue } = a;
  if (slot >= 0) {
    for (let k = 0; k < HOURLY_INDEX.length; k++) {
      const x = v[HOURLY_INDEX[k]];
      if (x === 0) continue;
      const at = k * 24 + slot;
      if (all) hourly[at] += x;
      if (user) hByUser[hu + at] += x;
      if (queue) hByQueue[hq + at] += x;
    }
    return;
  }
  const hod = cell.hod!;
  for (let k = 0; k < HOURLY_INDEX.length; k++) {
    const base = k * 24;
    for (let h = 0; h < 24; h++) {
      const x = hod[base + h];
      if (x === 0) continue;
      const at = base + rot[h];
      if (all) hourly[at] += x;
      if (user) hByUser[hu + at] += x;
      if (queue) hByQueue[hq + at] += x;
    }
  }
}

/** `mask[i]` is 1 when dense key `keys[i]` is kept; undefined keeps all. */
function maskOf(kept: ReadonlySet<number> | null, keys: readonly number[]): Uint8Array | undefined {
  if (!kept) return undefined;
  return Uint8Array.from(keys, (key) => kept.has(key) ? 1 : 0);
}

/**
 * Sums the buckets `[first, end)` of the pairs `filter` keeps. `slotOf(hour)` is the local
 * hour of the day (0–23) in which bucket `hour` starts. `shift`, when the zone's offset is a
 * whole number of hours all over the span, is that offset in hours: whole UTC days inside the
 * span are then read from the day cells (24 times fewer cells), their hours of the day
 * turned by `shift`. Without a filter a bucket's per-user and per-queue sums are read (one
 * cell per user and per queue); with one, the pairs it keeps.
 *
 * With `cacheKey` (naming the span, the zone and the filter) the sums are kept in the
 * aggregates' cache (sums_cache.ts), which later increments update: the next request with
 * the same key sums nothing.
 */
export function sumHours(
  dash: DashAggregates,
  first: number,
  end: number,
  filter: PairFilter,
  slotOf: (hour: number) => number,
  shift?: number,
  cacheKey?: string,
): DashSums {
  const kept = cacheKey === undefined ? undefined : dash.sums.get(cacheKey);
  const a = kept ? kept.sums : summed(dash, first, end, filter, slotOf, shift, cacheKey);
  const sums: DashSums = {
    total: a.total,
    byUser: new Map(),
    byQueue: new Map(),
    hourly: a.hourly,
    hourlyByUser: new Map(),
    hourlyByQueue: new Map(),
  };
  const split = (keys: number[], flat: Float64Array, hflat: Float64Array, out: Map<number, Float64Array>, hout: Map<number, Float64Array>) => {
    for (let i = 0; i < keys.length; i++) {
      const v = flat.subarray(i * METRIC_COUNT, (i + 1) * METRIC_COUNT);
      if (!v.some((x) => x !== 0)) continue;
      out.set(keys[i], v);
      hout.set(keys[i], hflat.subarray(i * HOURLY, (i + 1) * HOURLY));
    }
  };
  split(dash.userKeys, a.byUser, a.hByUser, sums.byUser, sums.hourlyByUser);
  split(dash.queueKeys, a.byQueue, a.hByQueue, sums.byQueue, sums.hourlyByQueue);
  return sums;
}

/** The flat sums of a span, summed from the cells (and kept under `cacheKey` when given). */
function summed(
  dash: DashAggregates,
  first: number,
  end: number,
  filter: PairFilter,
  slotOf: (hour: number) => number,
  shift: number | undefined,
  cacheKey: string | undefined,
): FlatSums {
  const nq = dash.queueKeys.length;
  const nu = dash.userKeys.length;
  const a: FlatSums = {
    total: new Float64Array(METRIC_COUNT),
    byUser: new Float64Array(nu * METRIC_COUNT),
    byQueue: new Float64Array(nq * METRIC_COUNT),
    hourly: new Float64Array(HOURLY),
    hByUser: new Float64Array(nu * HOURLY),
    hByQueue: new Float64Array(nq * HOURLY),
  };
  const queues = maskOf(filter.queues, dash.queueKeys);
  const users = maskOf(filter.users, dash.userKeys);
  const filtered = queues !== undefined || users !== undefined;
  const rot = Int32Array.from({ length: 24 }, (_, h) => (((h + (shift ?? 0)) % 24) + 24) % 24);
  const addBucket = (b: HourCells, slot: number) => {
    if (!filtered) {
      for (const cell of b.users) addCell(a, cell, true, true, false, slot, rot);
      for (const cell of b.queues) addCell(a, cell, false, false, true, slot, rot);
      return;
    }
    for (const cell of b.cells) {
      if ((queues && queues[cell.qi] === 0) || (users && users[cell.ui] === 0)) continue;
      addCell(a, cell, true, true, true, slot, rot);
    }
  };
  let hour = first;
  while (hour < end) {
    if (shift !== undefined && hour % 24 === 0 && hour + 24 <= end) {
      const d = dash.days.get(hour / 24);
      if (d) addBucket(d, -1);
      hour += 24;
      continue;
    }
    const h = dash.hours.get(hour);
    if (h) addBucket(h, slotOf(hour));
    hour++;
  }
  if (cacheKey !== undefined) dash.sums.set(cacheKey, { first, end, queues, users, slotOf, sums: a });
  return a;
}

/** Live counts of the tickets the filter keeps (open and pending now). */
export interface LiveCounts {
  open: number;
  pending: number;
  noQueue: number;
  openByUser: Map<number, number>;
  byQueue: Map<number, { open: number; pending: number }>;
}

/**
 * Counts per status, user and queue: the index's per-pair counts (actors/tickets/live_pairs.ts)
 * that the filter keeps, so any filter costs the few pairs, not the open tickets.
 */
export function liveCounts(index: TicketIndex, filter: PairFilter): LiveCounts {
  const out: LiveCounts = { open: 0, pending: 0, noQueue: 0, openByUser: new Map(), byQueue: new Map() };
  const { queues, users } = filter;
  for (const status of ["open", "pending"] as const) {
    for (const { queueKey, userKey, n } of index.live[status].values()) {
      if ((queues && !queues.has(queueKey)) || (users && !users.has(userKey))) continue;
      out[status] += n;
      if (queueKey === NO_QUEUE) out.noQueue += n;
      let q = out.byQueue.get(queueKey);
      if (!q) out.byQueue.set(queueKey, q = { open: 0, pending: 0 });
      q[status] += n;
      if (status === "open" && userKey !== 0) out.openByUser.set(userKey, (out.openByUser.get(userKey) ?? 0) + n);
    }
  }
  return out;
}

/** The rows of `[from, to)` the filter keeps, newest first: one page and whether more follow. */
export function rowsIn(
  rows: DashRows,
  from: number,
  to: number,
  filter: PairFilter,
  page: number,
  size: number,
): { rows: DashRow[]; hasMore: boolean } {
  const start = rows.firstAt(from);
  const out: DashRow[] = [];
  let skip = (page - 1) * size;
  for (let i = rows.firstAt(to) - 1; i >= start; i--) {
    if (filter.queues && !filter.queues.has(rows.queueKeyOf(i))) continue;
    if (filter.users && !filter.users.has(rows.userKeyOf(i))) continue;
    if (skip > 0) {
      skip--;
      continue;
    }
    if (out.length === size) return { rows: out, hasMore: true };
    out.push(rows.get(i));
  }
  return { rows: out, hasMore: false };
}
