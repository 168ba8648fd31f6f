/**
 * ISO 8601 text of stored millisecond dates, as the API shows every date.
 *
 * `Date.prototype.toISOString` costs ~2.3 µs in Deno 2's V8 against ~0.4 µs for the UTC
 * getters; a message page formats 40 dates per request, which was most of the time spent
 * building its views (bench/inbox.ts). Same text as `toISOString` for years 1000–9999;
 * other years (and invalid dates, which throw the same RangeError) go to `toISOString`.
 */

const TWO = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, "0"));
const MILLIS_Z = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, "0") + "Z");

/**
 * The text up to the second ("2026-11-23T20:30:18.") of recently formatted seconds, in slots
 * by second. Messages and tickets written in one burst share their seconds, so most dates
 * cost one lookup and one concatenation instead of a `Date` and fifteen (the inbound path
 * formats ~5 dates per message: bench/ingest.ts). A pure memo: nothing depends on its state.
 */
const SLOTS = 256;
const slotSecond = new Float64Array(SLOTS).fill(NaN);
const slotPrefix: string[] = new Array(SLOTS).fill("");

/** "YYYY-MM-DDTHH:MM:SS." of a second since the epoch, or null outside years 1000–9999. */
function secondPrefix(second: number): string | null {
  const d = new Date(second * 1000);
  const year = d.getUTCFullYear();
  if (!(year >= 1000 && year <= 9999)) return null;
  return year + "-" + TWO[d.getUTCMonth() + 1] + "-" + TWO[d.getUTCDate()] + "T" + TWO[d.getUTCHours()] + ":" +
    TWO[d.getUTCMinutes()] + ":" + TWO[d.getUTCSeconds()] + ".";
}

/** `new Date(ms).toISOString()`, faster. */
export function isoText(ms: number): string {
  if (!Number.isSafeInteger(ms)) return new Date(ms).toISOString();
  const second = Math.floor(ms / 1000);
  const slot = second & (SLOTS - 1);
  if (slotSecond[slot] !== second) {
    const prefix = secondPrefix(second);
    if (prefix === null) return new Date(ms).toISOString();
    slotSecond[slot] = second;
    slotPrefix[slot] = prefix;
  }
  return slotPrefix[slot] + MILLIS_Z[ms - second * 1000];
}

/** ISO text of a stored ms date; null (or absent) stays null. */
export function isoDate(ms: number | null | undefined): string | null {
  return ms === null || ms === undefined ? null : isoText(ms);
}
