/**
 * A list of tickets kept sorted newest first (updatedAt, then id): one list of the ticket
 * index. Records are immutable snapshots: a changed ticket is removed with its old record
 * (whose sort key is the one stored) and inserted as the new one.
 */
import type { Ticket } from "../../domain/ticket.ts";
import { byRecency } from "../../domain/ticket_query.ts";

/** Tickets sorted by `byRecency`; binary search for insert and remove. */
export class SortedTickets {
  readonly items: Ticket[] = [];

  get length(): number {
    return this.items.length;
  }

  /** First position whose ticket is not newer than `t`. */
  #lowerBound(t: Ticket): number {
    const items = this.items;
    let lo = 0;
    let hi = items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (byRecency(items[mid], t) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  insert(t: Ticket): void {
    const at = this.#lowerBound(t);
    if (at === this.items.length) this.items.push(t);
    else this.items.splice(at, 0, t);
  }

  /** Removes the record `t` (the exact snapshot that was inserted); false when absent. */
  remove(t: Ticket): boolean {
    const at = this.#lowerBound(t);
    if (this.items[at]?.id !== t.id) return false;
    this.items.splice(at, 1);
    return true;
  }

  /** Appends without searching; the caller sorts once with `sort()` afterwards (bulk load). */
  append(t: Ticket): void {
    this.items.push(t);
  }

  sort(): void {
    this.items.sort(byRecency);
  }
}

/**
 * Walks several sorted lists as one, in recency order (or its reverse), each ticket once
 * (a ticket sits at the same key in every list that holds it).
 */
export function* mergeSorted(lists: SortedTickets[], ascending: boolean): Generator<Ticket> {
  const sources = lists.filter((l) => l.length > 0).map((l) => l.items);
  if (sources.length === 1) {
    const only = sources[0];
    if (ascending) for (let i = only.length - 1; i >= 0; i--) yield only[i];
    else yield* only;
    return;
  }
  const pos = sources.map((s) => (ascending ? s.length - 1 : 0));
  const live = (k: number) => (ascending ? pos[k] >= 0 : pos[k] < sources[k].length);
  while (true) {
    let best: Ticket | undefined;
    for (let k = 0; k < sources.length; k++) {
      if (!live(k)) continue;
      const t = sources[k][pos[k]];
      if (!best) best = t;
      else {
        const c = byRecency(t, best);
        if (ascending ? c > 0 : c < 0) best = t;
      }
    }
    if (!best) return;
    for (let k = 0; k < sources.length; k++) {
      if (live(k) && sources[k][pos[k]].id === best.id) pos[k] += ascending ? -1 : 1;
    }
    yield best;
  }
}
