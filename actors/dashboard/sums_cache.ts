/**
 * The sums of the spans the dashboard was last asked for (per company, span of hours, time
 * zone and filter), kept up to date in place: every increment the desk adds is also added to
 * each kept span that holds its hour and whose filter keeps its pair. A repeated request (the
 * page's live refresh, every manager's default range, a benchmark) then costs no summing at
 * all, even while messages arrive, where dropping the sums on each change would have summed
 * again after every message. Summing 30 days of cells cost ~1 ms (bench/reports.ts), a kept
 * span costs its share of each increment (a range check per span).
 *
 * The flat arrays are indexed by the aggregates' dense user and queue indexes; a new user or
 * queue (a new dense index) empties the cache, as the arrays would be too short.
 */

/** A span's sums, flat by dense index (actors/dashboard/read.ts `DashSums` is built from them). */
export interface FlatSums {
  total: Float64Array;
  byUser: Float64Array;
  byQueue: Float64Array;
  /** `[k * 24 + slot]`: hourly metric k in local hour `slot`. */
  hourly: Float64Array;
  hByUser: Float64Array;
  hByQueue: Float64Array;
}

/** One kept span: its hours `[first, end)`, its filter as masks, its local hours, its sums. */
export interface KeptSpan {
  readonly first: number;
  readonly end: number;
  /** `queues[qi]`/`users[ui]` 1 when kept; undefined keeps all. */
  readonly queues: Uint8Array | undefined;
  readonly users: Uint8Array | undefined;
  /** The local hour of the day (0–23) in which bucket `hour` starts. */
  readonly slotOf: (hour: number) => number;
  readonly sums: FlatSums;
}

/** Spans kept at most (least recently asked goes first). */
const MAX_SPANS = 16;

/** See the module doc. */
export class SumsCache {
  readonly #spans = new Map<string, KeptSpan>();

  /** The span kept under `key`, now the most recently asked. */
  get(key: string): KeptSpan | undefined {
    const span = this.#spans.get(key);
    if (span) {
      this.#spans.delete(key);
      this.#spans.set(key, span);
    }
    return span;
  }

  set(key: string, span: KeptSpan): void {
    if (this.#spans.size >= MAX_SPANS) this.#spans.delete(this.#spans.keys().next().value!);
    this.#spans.set(key, span);
  }

  clear(): void {
    this.#spans.clear();
  }

  /**
   * Adds one increment to the spans that hold it: `metric` of pair (qi, ui) in `hour`, and
   * hourly metric `k` (-1: none) in that hour's local slot.
   */
  note(hour: number, qi: number, ui: number, metric: number, k: number, value: number, metricCount: number): void {
    for (const span of this.#spans.values()) {
      if (hour < span.first || hour >= span.end) continue;
      if ((span.queues && span.queues[qi] !== 1) || (span.users && span.users[ui] !== 1)) continue;
      const s = span.sums;
      s.total[metric] += value;
      s.byUser[ui * metricCount + metric] += value;
      s.byQueue[qi * metricCount + metric] += value;
      if (k < 0) continue;
      const hourly = s.hourly.length;
      const at = k * 24 + span.slotOf(hour);
      s.hourly[at] += value;
      s.hByUser[ui * hourly + at] += value;
      s.hByQueue[qi * hourly + at] += value;
    }
  }
}
