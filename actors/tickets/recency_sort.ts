/**
 * Orders a company's tickets oldest first by (updatedAt, id), the reverse of `byRecency`,
 * for the desk's bulk load (index.ts `loadAll`).
 *
 * Why not `Array.prototype.sort` with `byRecency`: at a million tickets its twenty million
 * comparator calls, each reading two scattered records, took 2.3 s of a 30 s cold start
 * (issue #23 §3). Here the ids are first listed in id order (each record's place noted at its
 * id, no sort), then a stable radix sort on `updatedAt − oldest` (16 bits a pass, as many
 * passes as the dates' span needs, three for years of milliseconds) orders them by date,
 * ties staying in id order: the comparator's order exactly, in ~0.1–0.2 s. (A 64-bit BigInt key
 * per ticket sorted natively took 0.8 s: the BigInts.) A company whose ids are far sparser
 * than its tickets, repeated, or not integers, or whose dates are not integers, takes the
 * comparator sort.
 */
import type { Ticket } from "../../domain/ticket.ts";
import { byRecency } from "../../domain/ticket_query.ts";

/** Ids may be this many times the ticket count before the id-order placement is not worth it. */
const MAX_ID_SPREAD = 4;
const DIGIT_BITS = 16;
const DIGITS = 1 << DIGIT_BITS;

/** Where each ticket of a `recencyOrder` is in the array it was given. */
export interface RecencyOrder {
  /** Ticket ids oldest first. */
  readonly ids: Int32Array;
  /** By id: the ticket's index in the given array + 1 (0: no ticket). */
  readonly at: Int32Array;
}

/**
 * The ids oldest first of the tickets whose ids and dates are `id[i]` and `updated[i]` (a
 * pass over the records read them, in the order they sit in memory), without moving
 * anything; undefined when they do not allow the radix path (see the module doc).
 */
export function recencyOrder(id: ArrayLike<number>, updated: ArrayLike<number>): RecencyOrder | undefined {
  const n = id.length;
  let maxId = 0;
  let oldest = Infinity;
  let newest = -Infinity;
  /** Whether they come oldest first already (a snapshot saved in that order): no sort then. */
  let inOrder = true;
  for (let i = 0; i < n; i++) {
    if (!Number.isInteger(updated[i]) || !Number.isInteger(id[i]) || id[i] < 0) return undefined;
    if (id[i] > maxId) maxId = id[i];
    if (updated[i] < oldest) oldest = updated[i];
    if (updated[i] > newest) newest = updated[i];
    if (i > 0 && inOrder) inOrder = updated[i - 1] < updated[i] || (updated[i - 1] === updated[i] && id[i - 1] < id[i]);
  }
  if (maxId > MAX_ID_SPREAD * n + 1024 || !Number.isSafeInteger(newest - oldest)) return undefined;
  const at = new Int32Array(maxId + 1);
  for (let i = 0; i < n; i++) {
    if (at[id[i]] !== 0) return undefined; // a repeated id: the comparator sort keeps both
    at[id[i]] = i + 1;
  }
  if (inOrder) return { ids: Int32Array.from(id), at };
  // Ids in id order with their date offsets split in two 32-bit halves (exact below 2^53;
  // the high half only when the dates span 2^32 ms or more).
  const span = newest - oldest;
  const passes = span === 0 ? 0 : Math.ceil(Math.log2(span + 1) / DIGIT_BITS);
  const wide = passes > 2 ? n : 0;
  let ids = new Int32Array(n);
  let lo = new Uint32Array(n);
  let hi = new Uint32Array(wide);
  for (let k = 0, next = 0; k <= maxId; k++) {
    if (at[k] === 0) continue;
    const delta = updated[at[k] - 1] - oldest;
    ids[next] = k;
    lo[next] = delta % 4294967296;
    if (wide) hi[next] = Math.floor(delta / 4294967296);
    next++;
  }
  let ids2 = new Int32Array(n);
  let lo2 = new Uint32Array(n);
  let hi2 = new Uint32Array(wide);
  const count = new Int32Array(DIGITS);
  for (let pass = 0; pass < passes; pass++) {
    const half = pass < 2 ? lo : hi;
    const shift = (pass & 1) * DIGIT_BITS;
    count.fill(0);
    for (let i = 0; i < n; i++) count[(half[i] >>> shift) & (DIGITS - 1)]++;
    for (let d = 0, sum = 0; d < DIGITS; d++) {
      const c = count[d];
      count[d] = sum;
      sum += c;
    }
    // The halves no later pass reads are not moved (dates within 2^32 ms: only `lo`).
    const moveLo = pass + 1 < Math.min(passes, 2);
    const moveHi = passes > 2;
    for (let i = 0; i < n; i++) {
      const to = count[(half[i] >>> shift) & (DIGITS - 1)]++;
      ids2[to] = ids[i];
      if (moveLo) lo2[to] = lo[i];
      if (moveHi) hi2[to] = hi[i];
    }
    [ids, ids2] = [ids2, ids];
    [lo, lo2] = [lo2, lo];
    [hi, hi2] = [hi2, hi];
  }
  return { ids, at };
}

/** Puts `tickets` in `order` (of `recencyOrder` over them), in place. */
export function applyOrder(tickets: Ticket[], order: RecencyOrder): void {
  const given = tickets.slice();
  const { ids, at } = order;
  for (let i = 0; i < ids.length; i++) tickets[i] = given[at[ids[i]] - 1];
}

/** Sorts `tickets` in place, oldest first; see the module doc. */
export function sortOldestFirst(tickets: Ticket[]): void {
  if (tickets.length < 2) return;
  const order = recencyOrder(tickets.map((t) => t.id), tickets.map((t) => t.updatedAt));
  if (order) applyOrder(tickets, order);
  else tickets.sort((a, b) => byRecency(b, a));
}
