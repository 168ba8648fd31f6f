/**
 * A list of tickets kept sorted by recency (updatedAt, then id): one list of the ticket index.
 * Records are immutable snapshots: a changed ticket is removed with its old record (whose
 * sort key is the one stored) and inserted as the new one.
 *
 * Stored OLDEST first, in chunks of at most `CHUNK_MAX` tickets (a list of small sorted
 * arrays, as a B-tree's leaves): an insert or a remove finds its chunk by binary search over
 * the chunks' newest tickets and moves at most a chunk's slots. Why: one flat array moved
 * every slot between the change and the nearer end, and an accept takes a pending ticket from
 * anywhere in its list: at 100,000 tickets that was thousands of slots per list per accept,
 * 8.6% of the server's CPU in `bench/inbox.ts`'s accepts and closes (issue #34). A message
 * makes its ticket the newest, so the insert is still a push onto the last chunk.
 */
import type { Ticket } from "../../domain/ticket.ts";
import { byRecency } from "../../domain/ticket_query.ts";

/** A chunk is split in two when it grows past this. */
const CHUNK_MAX = 512;
/** A chunk this small after a remove is merged into a neighbour that has room. */
const CHUNK_MIN = 64;

/** Tickets sorted by `byRecency`, oldest first; binary search for insert and remove. */
export class SortedTickets {
  /** Non-empty chunks, oldest first; each sorted oldest first. */
  #chunks: Ticket[][] = [];
  #length = 0;

  get length(): number {
    return this.#length;
  }

  /**
   * For tight loops (merges, counts): the chunks, oldest first, each oldest first and never
   * empty. Read-only: a caller never changes them.
   */
  get chunks(): readonly (readonly Ticket[])[] {
    return this.#chunks;
  }

  /** The ticket at position `i` (0 = oldest), or undefined outside the list. */
  at(i: number): Ticket | undefined {
    if (i < 0 || i >= this.#length) return undefined;
    const [c, p] = this.#locate(i);
    return this.#chunks[c][p];
  }

  /** Positions `from` (inclusive) to `to` (exclusive), oldest first, as a new array. */
  slice(from: number, to: number): Ticket[] {
    from = Math.max(0, from);
    to = Math.min(to, this.#length);
    const out: Ticket[] = [];
    if (from >= to) return out;
    let [c, p] = this.#locate(from);
    const chunks = this.#chunks;
    for (let left = to - from; left > 0; c++, p = 0) {
      const chunk = chunks[c];
      const end = Math.min(chunk.length, p + left);
      for (let i = p; i < end; i++) out.push(chunk[i]);
      left -= end - p;
    }
    return out;
  }

  /** The chunk and the position in it of list position `i` (0 ≤ i < length), walked from the nearer end. */
  #locate(i: number): [number, number] {
    const chunks = this.#chunks;
    if (i < this.#length / 2) {
      let c = 0;
      while (i >= chunks[c].length) i -= chunks[c++].length;
      return [c, i];
    }
    let c = chunks.length - 1;
    let fromEnd = this.#length - 1 - i;
    while (fromEnd >= chunks[c].length) fromEnd -= chunks[c--].length;
    return [c, chunks[c].length - 1 - fromEnd];
  }

  /** The first chunk whose newest ticket is not older than `t`; `chunks.length` when none. */
  #chunkOf(t: Ticket): number {
    const chunks = this.#chunks;
    let lo = 0;
    let hi = chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const chunk = chunks[mid];
      if (byRecency(chunk[chunk.length - 1], t) > 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  insert(t: Ticket): void {
    const chunks = this.#chunks;
    this.#length++;
    const last = chunks[chunks.length - 1];
    if (last === undefined) {
      chunks.push([t]);
      return;
    }
    if (byRecency(t, last[last.length - 1]) < 0) {
      // The newest: a push (a message's ticket).
      if (last.length < CHUNK_MAX) last.push(t);
      else chunks.push([t]);
      return;
    }
    const c = this.#chunkOf(t);
    const chunk = chunks[c];
    chunk.splice(lowerBound(chunk, t), 0, t);
    if (chunk.length > CHUNK_MAX) chunks.splice(c + 1, 0, chunk.splice(chunk.length >>> 1));
  }

  /** Removes the record `t` (the exact snapshot that was inserted); false when absent. */
  remove(t: Ticket): boolean {
    const chunks = this.#chunks;
    const c = this.#chunkOf(t);
    const chunk = chunks[c];
    if (chunk === undefined) return false;
    const at = lowerBound(chunk, t);
    if (chunk[at]?.id !== t.id) return false;
    if (at === chunk.length - 1) chunk.pop();
    else chunk.splice(at, 1);
    this.#length--;
    if (chunk.length < CHUNK_MIN) this.#merge(c);
    return true;
  }

  /** Drops chunk `c` when empty, or merges it into a neighbour with room for it. */
  #merge(c: number): void {
    const chunks = this.#chunks;
    const chunk = chunks[c];
    if (chunk.length === 0) {
      chunks.splice(c, 1);
      return;
    }
    const before = chunks[c - 1];
    if (before !== undefined && before.length + chunk.length <= CHUNK_MAX) {
      for (const t of chunk) before.push(t);
      chunks.splice(c, 1);
      return;
    }
    const after = chunks[c + 1];
    if (after !== undefined && after.length + chunk.length <= CHUNK_MAX) {
      for (const t of after) chunk.push(t);
      chunks.splice(c + 1, 1);
    }
  }

  /** Appends without searching: the bulk load adds tickets already in list order (oldest first). */
  append(t: Ticket): void {
    const last = this.#chunks[this.#chunks.length - 1];
    if (last !== undefined && last.length < CHUNK_MAX) last.push(t);
    else this.#chunks.push([t]);
    this.#length++;
  }
}

/** First position of `chunk` whose ticket is not older than `t`. */
function lowerBound(chunk: readonly Ticket[], t: Ticket): number {
  let lo = 0;
  let hi = chunk.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (byRecency(chunk[mid], t) > 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
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
  const sources: (readonly (readonly Ticket[])[])[] = [];
  for (const list of lists) if (list.length > 0) sources.push(list.chunks);
  const k = sources.length;
  if (k === 0) return;
  if (k === 1) {
    const chunks = sources[0];
    if (ascending) {
      for (const chunk of chunks) for (let i = 0; i < chunk.length; i++) if (visit(chunk[i]) === false) return;
    } else {
      for (let c = chunks.length - 1; c >= 0; c--) {
        const chunk = chunks[c];
        for (let i = chunk.length - 1; i >= 0; i--) if (visit(chunk[i]) === false) return;
      }
    }
    return;
  }
  // Lists are oldest first: ascending walks them forwards, newest first backwards. Each list's
  // cursor is a chunk and a position in it; `heads[j]` is its ticket, undefined once walked.
  const step = ascending ? 1 : -1;
  const chunkAt = new Int32Array(k);
  const posAt = new Int32Array(k);
  const heads: (Ticket | undefined)[] = [];
  for (let j = 0; j < k; j++) {
    const chunks = sources[j];
    chunkAt[j] = ascending ? 0 : chunks.length - 1;
    posAt[j] = ascending ? 0 : chunks[chunks.length - 1].length - 1;
    heads.push(chunks[chunkAt[j]][posAt[j]]);
  }
  const sign = ascending ? -1 : 1;
  while (true) {
    let best: Ticket | undefined;
    for (let j = 0; j < k; j++) {
      const t = heads[j];
      if (t === undefined) continue;
      if (best === undefined || sign * byRecency(t, best) < 0) best = t;
    }
    if (best === undefined) return;
    for (let j = 0; j < k; j++) {
      const t = heads[j];
      if (t !== undefined && t.id === best.id) heads[j] = advance(sources[j], chunkAt, posAt, j, step);
    }
    if (visit(best) === false) return;
  }
}

/** Moves cursor `j` one step through its chunks; the ticket there, or undefined past the end. */
function advance(
  chunks: readonly (readonly Ticket[])[],
  chunkAt: Int32Array,
  posAt: Int32Array,
  j: number,
  step: number,
): Ticket | undefined {
  let c = chunkAt[j];
  let p = posAt[j] + step;
  if (p < 0 || p >= chunks[c].length) {
    c += step;
    if (c < 0 || c >= chunks.length) return undefined;
    chunkAt[j] = c;
    p = step > 0 ? 0 : chunks[c].length - 1;
  }
  posAt[j] = p;
  return chunks[c][p];
}
