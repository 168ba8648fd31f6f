/**
 * The new-leads list and the ratings table in memory (aggregates.ts): rows ordered by time,
 * kept as columns in one growing Float64Array (six numbers a row) rather than an object per
 * row. A month of 100k tickets holds ~45,000 lead rows; as objects they were 90,000 heap
 * objects (each row and its boxed time) for every full collection to mark, and that marking
 * is what stalls the open loop (issue #23 §2). A read builds objects only for its page.
 */
import type { DashRow } from "./aggregates.ts";

const STRIDE = 6;
const [AT, TICKET, CONTACT, QUEUE, USER, RATE] = [0, 1, 2, 3, 4, 5];

/** Rows ordered by `at` (rows of equal time keep their arrival order). */
export class DashRows implements Iterable<DashRow> {
  #data = new Float64Array(64 * STRIDE);
  #length = 0;

  get length(): number {
    return this.#length;
  }

  /** Row `i` (0 = oldest) as an object. */
  get(i: number): DashRow {
    const o = i * STRIDE;
    const d = this.#data;
    return { at: d[o + AT], ticketId: d[o + TICKET], contactId: d[o + CONTACT], queueKey: d[o + QUEUE], userKey: d[o + USER], rate: d[o + RATE] };
  }

  queueKeyOf(i: number): number {
    return this.#data[i * STRIDE + QUEUE];
  }

  userKeyOf(i: number): number {
    return this.#data[i * STRIDE + USER];
  }

  /** Appends `row` with no order check (a load in time order, or before `sortByTime`). */
  push(row: DashRow): void {
    this.#grow();
    this.#write(this.#length++, row);
  }

  /** Inserts `row` in time order (events nearly always arrive in order: a short walk back). */
  insert(row: DashRow): void {
    this.#grow();
    let i = this.#length;
    while (i > 0 && this.#data[(i - 1) * STRIDE + AT] > row.at) i--;
    this.#data.copyWithin((i + 1) * STRIDE, i * STRIDE, this.#length * STRIDE);
    this.#write(i, row);
    this.#length++;
  }

  /** Orders the rows by time after pushes in any order (stable). */
  sortByTime(): void {
    const rows = [...this];
    rows.sort((a, b) => a.at - b.at);
    rows.forEach((row, i) => this.#write(i, row));
  }

  /** The index of the first row at or after `at`. */
  firstAt(at: number): number {
    let lo = 0;
    let hi = this.#length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#data[mid * STRIDE + AT] < at) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  *[Symbol.iterator](): Iterator<DashRow> {
    for (let i = 0; i < this.#length; i++) yield this.get(i);
  }

  #write(i: number, row: DashRow): void {
    const o = i * STRIDE;
    const d = this.#data;
    d[o + AT] = row.at;
    d[o + TICKET] = row.ticketId;
    d[o + CONTACT] = row.contactId;
    d[o + QUEUE] = row.queueKey;
    d[o + USER] = row.userKey;
    d[o + RATE] = row.rate;
  }

  #grow(): void {
    if ((this.#length + 1) * STRIDE <= this.#data.length) return;
    const next = new Float64Array(this.#data.length * 2);
    next.set(this.#data);
    this.#data = next;
  }
}
