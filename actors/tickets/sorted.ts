/**
 * A list of tickets kept sorted by recency (updatedAt, then id): one list of the ticket index.
 * Records are immutable snapshots: a changed ticket is removed with its old record (whose
 * sort key is the one stored) and inserted as the new one.
 *
 * Stored OLDEST first, from `#start` in `#buf`: a message makes its ticket the newest, so the
 * insert is a push, and the ticket it removes is either recent (near the end: a short move)
 * or among the oldest (near the front: the slots before it move one up and `#start` steps
 * over the hole). A plain array's `shift` looked free but is not: V8 trims an array's front
 * in place only for small arrays outside large-object space, and the lists of a busy company
 * are larger than that, so every message moved whole lists (11% of the inbound path's CPU
 * with 10,000 live conversations in bench/ingest.ts).
 */
import type { Ticket } from "../../domain/ticket.ts";
import { byRecency } from "../../domain/ticket_query.ts";

/** Tickets sorted by `byRecency`, oldest first; binary search for insert and remove. */
export class SortedTickets {
  /** `#buf[#start…]` holds the list; the slots before `#start` are cleared (undefined). */
  #buf: (Ticket | undefined)[] = [];
  #start = 0;

  get length(): number {
    return this.#buf.length - this.#start;
  }

  /** The ticket at position `i` (0 = oldest), or undefined outside the list. */
  at(i: number): Ticket | undefined {
    return i < 0 ? undefined : this.#buf[this.#start + i];
  }

  /**
   * For tight loops (merges, counts): position `i` is `buffer[offset + i]`, and reading one
   * position before the first or after the last gives undefined, as `at` does.
   */
  get buffer(): readonly (Ticket | undefined)[] {
    return this.#buf;
  }
  get offset(): number {
    return this.#start;
  }

  /** Positions `from` (inclusive) to `to` (exclusive), oldest first, as a new array. */
  slice(from: number, to: number): Ticket[] {
    return this.#buf.slice(this.#start + Math.max(0, from), this.#start + Math.min(to, this.length)) as Ticket[];
  }

  /** First position whose ticket is not older than `t`. */
  #lowerBound(t: Ticket): number {
    const buf = this.#buf;
    let lo = this.#start;
    let hi = buf.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (byRecency(buf[mid]!, t) > 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  insert(t: Ticket): void {
    const buf = this.#buf;
    const last = buf[buf.length - 1];
    if (this.length === 0 || byRecency(t, last!) < 0) {
      buf.push(t);
      return;
    }
    const at = this.#lowerBound(t);
    if (this.#start > 0 && at - this.#start < buf.length - at) this.#insertNearFront(at, t);
    else buf.splice(at, 0, t);
  }

  /**
   * Inserts `t` before position `at` by moving the older ones down into the hole before
   * `#start`. The shifting loops live in methods of their own: inside `insert` and `remove`,
   * code optimized before a branch had run left for the interpreter there on each later
   * call, for the rest of a shift of thousands of slots (`--trace-deopt`, 25 times in one
   * `bench/inbox.ts` server's accepts and closes).
   */
  #insertNearFront(at: number, t: Ticket): void {
    const buf = this.#buf;
    this.#start--;
    for (let i = this.#start; i < at - 1; i++) buf[i] = buf[i + 1];
    buf[at - 1] = t;
  }

  /** Removes the record `t` (the exact snapshot that was inserted); false when absent. */
  remove(t: Ticket): boolean {
    const buf = this.#buf;
    const at = this.#lowerBound(t);
    if (buf[at]?.id !== t.id) return false;
    if (at === buf.length - 1) buf.pop();
    else if (at - this.#start < buf.length - at) this.#removeNearFront(at);
    else buf.splice(at, 1);
    if (this.length === 0) this.#compact();
    return true;
  }

  /** Removes position `at` by moving the older ones up over it (see `#insertNearFront`). */
  #removeNearFront(at: number): void {
    const buf = this.#buf;
    for (let i = at; i > this.#start; i--) buf[i] = buf[i - 1];
    buf[this.#start++] = undefined;
    if (this.#start > 1024 && this.#start * 2 > buf.length) this.#compact();
  }

  /** Appends without searching: the bulk load adds tickets already in list order (oldest first). */
  append(t: Ticket): void {
    this.#buf.push(t);
  }

  /** Drops the cleared front slots (amortised: only once they are half the array). */
  #compact(): void {
    this.#buf = this.#buf.slice(this.#start);
    this.#start = 0;
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
  const buffers: (readonly (Ticket | undefined)[])[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  for (const list of lists) {
    if (list.length === 0) continue;
    buffers.push(list.buffer);
    starts.push(list.offset);
    ends.push(list.offset + list.length);
  }
  const k = buffers.length;
  if (k === 0) return;
  if (k === 1) {
    const only = buffers[0];
    if (ascending) {
      for (let i = starts[0]; i < ends[0]; i++) if (visit(only[i]!) === false) return;
    } else for (let i = ends[0] - 1; i >= starts[0]; i--) if (visit(only[i]!) === false) return;
    return;
  }
  // Lists are oldest first: ascending walks them forwards, newest first backwards. A position
  // one step outside a list reads undefined (see `SortedTickets.buffer`), which ends it.
  const step = ascending ? 1 : -1;
  const pos = Int32Array.from(ascending ? starts : ends.map((end) => end - 1));
  const sign = ascending ? -1 : 1;
  while (true) {
    let best: Ticket | undefined;
    for (let j = 0; j < k; j++) {
      const t = buffers[j][pos[j]];
      if (t === undefined) continue;
      if (best === undefined || sign * byRecency(t, best) < 0) best = t;
    }
    if (best === undefined) return;
    for (let j = 0; j < k; j++) {
      const t = buffers[j][pos[j]];
      if (t !== undefined && t.id === best.id) pos[j] += step;
    }
    if (visit(best) === false) return;
  }
}
