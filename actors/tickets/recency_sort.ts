/**
 * Orders a company's tickets oldest first by (updatedAt, id), the reverse of `byRecency`,
 * for the desk's bulk load (index.ts `loadAll`).
 *
 * Why not `Array.prototype.sort` with `byRecency`: at a million tickets its twenty million
 * comparator calls, each reading two scattered records, took 2.3 s of a 30 s cold start
 * (issue #23 §3). Here each ticket becomes one 64-bit key, `(updatedAt − oldest) << rankBits |
 * rank`, where rank is its place in id order (found by placing records at their id, no sort),
 * and the keys are sorted natively without a comparator: 0.5 s. Keys are distinct (ranks
 * are), so the order is total and equal to the comparator's. A company whose ids are far
 * sparser than its tickets, or whose dates span more than the bits left, takes the
 * comparator sort.
 */
import type { Ticket } from "../../domain/ticket.ts";
import { byRecency } from "../../domain/ticket_query.ts";

/** Ids may be this many times the ticket count before the id-order placement is not worth it. */
const MAX_ID_SPREAD = 4;

/** Sorts `tickets` in place, oldest first; see the module doc. */
export function sortOldestFirst(tickets: Ticket[]): void {
  const n = tickets.length;
  if (n < 2) return;
  let maxId = 0;
  let oldest = Infinity;
  let newest = -Infinity;
  let integral = true;
  for (const t of tickets) {
    integral &&= Number.isInteger(t.updatedAt) && Number.isInteger(t.id) && t.id >= 0;
    if (t.id > maxId) maxId = t.id;
    if (t.updatedAt < oldest) oldest = t.updatedAt;
    if (t.updatedAt > newest) newest = t.updatedAt;
  }
  const rankBits = Math.max(1, Math.ceil(Math.log2(n)));
  const fits = integral && maxId <= MAX_ID_SPREAD * n + 1024 && Number.isSafeInteger(newest - oldest) &&
    (newest - oldest) < 2 ** (64 - rankBits);
  const atId: (Ticket | undefined)[] = fits ? new Array(maxId + 1) : [];
  // Id order: each record at its id (ids are unique within a company; a repeat sorts the slow way).
  const unique = fits && tickets.every((t) => atId[t.id] === undefined && (atId[t.id] = t) !== undefined);
  if (!unique) {
    tickets.sort((a, b) => byRecency(b, a));
    return;
  }
  const keys = new BigUint64Array(n);
  const shift = BigInt(rankBits);
  let rank = 0;
  for (let id = 0; id <= maxId; id++) {
    const t = atId[id];
    if (t === undefined) continue;
    tickets[rank] = t;
    keys[rank] = (BigInt(t.updatedAt - oldest) << shift) | BigInt(rank);
    rank++;
  }
  keys.sort();
  const mask = (1n << shift) - 1n;
  for (let i = 0; i < n; i++) atId[i] = tickets[Number(keys[i] & mask)];
  for (let i = 0; i < n; i++) tickets[i] = atId[i]!;
}
