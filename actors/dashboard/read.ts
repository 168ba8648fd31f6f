/**
 * Reads of the dashboard's counters: the sums over a span of hour buckets (cost: hours ×
 * the pairs active in them, never the tickets), the live open/pending counts from the desk's
 * lists, and the rows of a range. Pure over the in-memory structures; no KV.
 */
import { HOURLY_METRICS, M, METRIC_COUNT } from "../../domain/dashboard.ts";
import type { Ticket } from "../../domain/ticket.ts";
import type { TicketIndex } from "../tickets/index.ts";
import { NO_QUEUE } from "../tickets/index.ts";
import { type DashAggregates, type DashRow, firstRowAt } from "./aggregates.ts";

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

function entry(map: Map<number, Float64Array>, key: number, size: number): Float64Array {
  let v = map.get(key);
  if (!v) map.set(key, v = new Float64Array(size));
  return v;
}

/**
 * Sums the buckets `[first, end)` of the pairs `filter` keeps. `slotOf(hour)` is the local
 * hour of the day (0–23) in which bucket `hour` starts.
 */
export function sumHours(
  dash: DashAggregates,
  first: number,
  end: number,
  filter: PairFilter,
  slotOf: (hour: number) => number,
): DashSums {
  const sums: DashSums = {
    total: new Float64Array(METRIC_COUNT),
    byUser: new Map(),
    byQueue: new Map(),
    hourly: new Float64Array(HOURLY),
    hourlyByUser: new Map(),
    hourlyByQueue: new Map(),
  };
  const { queues, users } = filter;
  for (let hour = first; hour < end; hour++) {
    const h = dash.hours.get(hour);
    if (!h) continue;
    const slot = slotOf(hour);
    for (const cell of h.cells) {
      if (queues && !queues.has(cell.queueKey)) continue;
      if (users && !users.has(cell.userKey)) continue;
      const v = cell.v;
      const byUser = entry(sums.byUser, cell.userKey, METRIC_COUNT);
      const byQueue = entry(sums.byQueue, cell.queueKey, METRIC_COUNT);
      for (let m = 0; m < METRIC_COUNT; m++) {
        const x = v[m];
        if (x === 0) continue;
        sums.total[m] += x;
        byUser[m] += x;
        byQueue[m] += x;
      }
      const hUser = entry(sums.hourlyByUser, cell.userKey, HOURLY);
      const hQueue = entry(sums.hourlyByQueue, cell.queueKey, HOURLY);
      for (let k = 0; k < HOURLY_INDEX.length; k++) {
        const x = v[HOURLY_INDEX[k]];
        if (x === 0) continue;
        const at = k * 24 + slot;
        sums.hourly[at] += x;
        hUser[at] += x;
        hQueue[at] += x;
      }
    }
  }
  return sums;
}

/** Live counts of the tickets the filter keeps, from the desk's lists. */
export interface LiveCounts {
  open: number;
  pending: number;
  noQueue: number;
  openByUser: Map<number, number>;
  byQueue: Map<number, { open: number; pending: number }>;
}

function keeps(filter: PairFilter, t: Ticket): boolean {
  return (!filter.queues || filter.queues.has(t.queueId ?? NO_QUEUE)) &&
    (!filter.users || filter.users.has(t.userId ?? 0));
}

/**
 * Counts per status, user and queue. Without a filter on both sides it reads the lists'
 * lengths; with queues and users both filtered it walks the matching queue lists (the
 * tickets of those queues that are open or pending now, not the company's history).
 */
export function liveCounts(index: TicketIndex, filter: PairFilter): LiveCounts {
  const out: LiveCounts = { open: 0, pending: 0, noQueue: 0, openByUser: new Map(), byQueue: new Map() };
  for (const status of ["open", "pending"] as const) {
    for (const [queueKey, list] of index.byQueue[status]) {
      if (filter.queues && !filter.queues.has(queueKey)) continue;
      let n = list.length;
      if (filter.users) {
        n = 0;
        for (let i = 0; i < list.length; i++) {
          const t = list.at(i)!;
          if (keeps(filter, t)) {
            n++;
            if (status === "open" && t.userId !== null) {
              out.openByUser.set(t.userId, (out.openByUser.get(t.userId) ?? 0) + 1);
            }
          }
        }
      }
      if (n === 0) continue;
      out[status] += n;
      if (queueKey === NO_QUEUE) out.noQueue += n;
      const q = out.byQueue.get(queueKey) ?? { open: 0, pending: 0 };
      q[status] += n;
      out.byQueue.set(queueKey, q);
    }
  }
  if (!filter.users) {
    for (const [userId, list] of index.byUser.open) {
      if (!filter.queues) {
        if (list.length) out.openByUser.set(userId, list.length);
        continue;
      }
      let n = 0;
      for (let i = 0; i < list.length; i++) if (keeps(filter, list.at(i)!)) n++;
      if (n) out.openByUser.set(userId, n);
    }
  }
  return out;
}

/** The rows of `[from, to)` the filter keeps, newest first: one page and whether more follow. */
export function rowsIn(
  rows: readonly DashRow[],
  from: number,
  to: number,
  filter: PairFilter,
  page: number,
  size: number,
): { rows: DashRow[]; hasMore: boolean } {
  const start = firstRowAt(rows, from);
  const out: DashRow[] = [];
  let skip = (page - 1) * size;
  for (let i = firstRowAt(rows, to) - 1; i >= start; i--) {
    const r = rows[i];
    if (filter.queues && !filter.queues.has(r.queueKey)) continue;
    if (filter.users && !filter.users.has(r.userKey)) continue;
    if (skip > 0) {
      skip--;
      continue;
    }
    if (out.length === size) return { rows: out, hasMore: true };
    out.push(r);
  }
  return { rows: out, hasMore: false };
}
