/**
 * Reads of the dashboard's counters: the sums over a span of hour buckets (cost: hours ×
 * the pairs active in them, never the tickets), the live open/pending counts from the desk's
 * lists, and the rows of a range. Pure over the in-memory structures; no KV.
 */
import { HOURLY_METRICS, M, METRIC_COUNT } from "../../domain/dashboard.ts";
import type { Ticket } from "../../domain/ticket.ts";
import type { TicketIndex } from "../tickets/index.ts";
import { NO_QUEUE } from "../tickets/index.ts";
import { type Cell, type DashAggregates, type DashRow, firstRowAt } from "./aggregates.ts";

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
 * Sums the buckets `[first, end)` of the pairs `filter` keeps. `slotOf(hour)` is the local
 * hour of the day (0–23) in which bucket `hour` starts. `shift`, when the zone's offset is a
 * whole number of hours all over the span, is that offset in hours: whole UTC days inside the
 * span are then read from the day cells (24 times fewer cells), their hours of the day
 * turned by `shift`.
 */
export function sumHours(
  dash: DashAggregates,
  first: number,
  end: number,
  filter: PairFilter,
  slotOf: (hour: number) => number,
  shift?: number,
): DashSums {
  const nq = dash.queueKeys.length;
  const nu = dash.userKeys.length;
  const total = new Float64Array(METRIC_COUNT);
  const byUser = new Float64Array(nu * METRIC_COUNT);
  const byQueue = new Float64Array(nq * METRIC_COUNT);
  const hourly = new Float64Array(HOURLY);
  const hByUser = new Float64Array(nu * HOURLY);
  const hByQueue = new Float64Array(nq * HOURLY);
  const { queues, users } = filter;
  const kept = (cell: Cell) =>
    (!queues || queues.has(cell.queueKey)) && (!users || users.has(cell.userKey));
  const addMetrics = (cell: Cell) => {
    const v = cell.v;
    const u = cell.ui * METRIC_COUNT;
    const q = cell.qi * METRIC_COUNT;
    for (let m = 0; m < METRIC_COUNT; m++) {
      const x = v[m];
      if (x === 0) continue;
      total[m] += x;
      byUser[u + m] += x;
      byQueue[q + m] += x;
    }
  };
  const addHourly = (at: number, x: number, cell: Cell) => {
    hourly[at] += x;
    hByUser[cell.ui * HOURLY + at] += x;
    hByQueue[cell.qi * HOURLY + at] += x;
  };
  let hour = first;
  while (hour < end) {
    if (shift !== undefined && hour % 24 === 0 && hour + 24 <= end) {
      const d = dash.days.get(hour / 24);
      if (d) {
        for (const cell of d.cells) {
          if (!kept(cell)) continue;
          addMetrics(cell);
          const hod = cell.hod!;
          for (let k = 0; k < HOURLY_INDEX.length; k++) {
            for (let h = 0; h < 24; h++) {
              const x = hod[k * 24 + h];
              if (x !== 0) addHourly(k * 24 + (((h + shift) % 24) + 24) % 24, x, cell);
            }
          }
        }
      }
      hour += 24;
      continue;
    }
    const h = dash.hours.get(hour);
    if (h) {
      const slot = slotOf(hour);
      for (const cell of h.cells) {
        if (!kept(cell)) continue;
        addMetrics(cell);
        for (let k = 0; k < HOURLY_INDEX.length; k++) {
          const x = cell.v[HOURLY_INDEX[k]];
          if (x !== 0) addHourly(k * 24 + slot, x, cell);
        }
      }
    }
    hour++;
  }
  const sums: DashSums = {
    total,
    byUser: new Map(),
    byQueue: new Map(),
    hourly,
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
  split(dash.userKeys, byUser, hByUser, sums.byUser, sums.hourlyByUser);
  split(dash.queueKeys, byQueue, hByQueue, sums.byQueue, sums.hourlyByQueue);
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
