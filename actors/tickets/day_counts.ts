/**
 * How many tickets were created each UTC day, per combination of the report's filter
 * columns (status and group flags, user, queue, connection): the ticket report's total over a
 * range of whole days adds up these few combinations per day instead of testing every ticket
 * (report.ts). Kept by the report's columns (columns.ts) as tickets are created, change
 * hands, status or connection, and are deleted.
 */

/** One combination's count on one day; `flags` as columns.ts stores them. */
export interface DayCombo {
  readonly flags: number;
  readonly user: number;
  readonly queue: number;
  readonly whatsapp: number;
  n: number;
}

export const DAY_MS = 86_400_000;

/**
 * A combination as one number when its ids are small enough (flags 3 bits, user + 1 17 bits,
 * queue + 1 and connection + 1 16 bits each: 52 bits, exact in a double), else as a string (a
 * Map may hold both; a number and a string key never collide). Why: the string built per
 * ticket was 1.3 s of a million-ticket load (issue #23 §3).
 */
function comboKey(flags: number, user: number, queue: number, whatsapp: number): number | string {
  const u = user + 1;
  const q = queue + 1;
  const w = whatsapp + 1;
  if (
    (flags & 7) === flags && (u & 0x1ffff) === u && (q & 0xffff) === q && (w & 0xffff) === w
  ) return ((flags * 0x20000 + u) * 0x10000 + q) * 0x10000 + w;
  return `${flags},${user},${queue},${whatsapp}`;
}

/** The counts; see the module doc. */
export class DayCounts {
  /** UTC day (ms ÷ DAY_MS) → combination key → count. */
  readonly days = new Map<number, Map<number | string, DayCombo>>();
  /** The last day counted and its combinations: a bulk load counts tickets day after day. */
  #lastDay = NaN;
  #lastCombos: Map<number | string, DayCombo> | undefined;

  /** Counts a ticket created at `createdAt` with these columns in (1) or out (-1). */
  count(createdAt: number, flags: number, user: number, queue: number, whatsapp: number, delta: 1 | -1): void {
    const day = Math.floor(createdAt / DAY_MS);
    let combos = day === this.#lastDay ? this.#lastCombos : this.days.get(day);
    if (!combos) {
      if (delta < 0) return;
      this.days.set(day, combos = new Map());
    }
    this.#lastDay = day;
    this.#lastCombos = combos;
    const key = comboKey(flags, user, queue, whatsapp);
    const combo = combos.get(key);
    if (!combo) {
      if (delta > 0) combos.set(key, { flags, user, queue, whatsapp, n: 1 });
      return;
    }
    combo.n += delta;
    if (combo.n > 0) return;
    combos.delete(key);
    if (combos.size === 0) {
      this.days.delete(day);
      this.#lastCombos = undefined;
      this.#lastDay = NaN;
    }
  }
}
