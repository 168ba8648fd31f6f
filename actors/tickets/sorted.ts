/**
 * A list of tickets kept sorted by recency (updatedAt, then id): one list of the ticket index.
 * Records are immutable snapshots: a changed ticket is removed with its old record (whose
 * sort key is the one stored) and inserted as the new one.
 *
 * `items` holds the OLDEST first: a message makes its ticket the newest, so the insert is a
 * push, and the ticket it removes is either recent (near the end: a short move) or the oldest
 * (the front: `shift`, which V8 does without moving the rest). A newest-first array paid a
 * move of the whole list on every update.
 */
import type { Ticket } from "../../domain/ticket.ts";
import { byRecency } from "../../domain/ticket_query.ts";

/** Tickets sorted by `byRecency`, oldest first in `items`; binary search for insert and remove. */
export class SortedTickets {
  /** Oldest first (the reverse of `byRecency`); read only outside this class. */
  readonly items: Ticket[] = [];

  get length(): number {
    return this.items.length;
  }

  /** First position whose ticket is not older than `t`. */
  #lowerBound(t: Ticket): number {
    const items = this.items;
    let lo = 0;
    let hi = items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (byRecency(items[mid], t) > 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  insert(t: Ticket): void {
    const items = this.items;
    const last = items[items.length - 1];
    if (last === undefined || byRecency(t, last) < 0) {
      items.push(t);
      return;
    }
    items.splice(this.#lowerBound(t), 0, t);
  }

  /** Removes the record `t` (the exact snapshot that was inserted); false when absent. */
  remove(t: Ticket): boolean {
    const at = this.#lowerBound(t);
    if (this.items[at]?.id !== t.id) return false;
    if (at === 0) this.items.shift();
    else if (at === this.items.length - 1) this.items.pop();
    else this.items.splice(at, 1);
    return true;
  }

  /** Appends without searching: the bulk load adds tickets already in list order (oldest first). */
  append(t: Ticket): void {
    this.items.push(t);
  }
}

/**
 * Visits the tickets of several sorted lists as one list, in recency order (or its reverse
 * with `ascending`), each ticket once (a ticket sits at the same key in every list that
 * holds it); stops when `visit` returns false. A plain loop over heads: no iterator objects on this hot path.
 */
export function visitMerged(
  lists: readonly SortedTickets[],
  ascending: boolean,
  visit: (t: Ticket) => boolean | void,
): void {
  const sources: Ticket[][] = [];
  for (const list of lists) if (list.length > 0) sources.push(list.items);
  const k = sources.length;
  if (k === 0) return;
  if (k === 1) {
    const only = sources[0];
    if (ascending) {
      for (let i = 0; i < only.length; i++) if (visit(only[i]) === false) return;
    } else for (let i = only.length - 1; i >= 0; i--) if (visit(only[i]) === false) return;
    return;
  }
  // `items` are oldest first: ascending walks them forwards, newest first backwards.
  const step = ascending ? 1 : -1;
  const pos = new Int32Array(k);
  if (!ascending) for (let j = 0; j < k; j++) pos[j] = sources[j].length - 1;
  const sign = ascending ? -1 : 1;
  while (true) {
    let best: Ticket | undefined;
    for (let j = 0; j < k; j++) {
      const t = sources[j][pos[j]];
      if (t === undefined) continue;
      if (best === undefined || sign * byRecency(t, best) < 0) best = t;
    }
    if (best === undefined) return;
    for (let j = 0; j < k; j++) {
      const t = sources[j][pos[j]];
      if (t !== undefined && t.id === best.id) pos[j] += step;
    }
    if (visit(best) === false) return;
  }
}
