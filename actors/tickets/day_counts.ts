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

/** The counts; see the module doc. */
export class DayCounts {
  /** UTC day (ms ÷ DAY_MS) → combination key → count. */
  readonly days = new Map<number, Map<string, DayCombo>>();

  /** Counts a ticket created at `createdAt` with these columns in (1) or out (-1). */
  count(createdAt: number, flags: number, user: number, queue: number, whatsapp: number, delta: 1 | -1): void {
    const day = Math.floor(createdAt / DAY_MS);
    let combos = this.days.get(day);
    if (!combos) {
      if (delta < 0) return;
      this.days.set(day, combos = new Map());
    }
    const key = `${flags},${user},${queue},${whatsapp}`;
    const combo = combos.get(key);
    if (!combo) {
      if (delta > 0) combos.set(key, { flags, user, queue, whatsapp, n: 1 });
      return;
    }
    combo.n += delta;
    if (combo.n > 0) return;
    combos.delete(key);
    if (combos.size === 0) this.days.delete(day);
  }
}
