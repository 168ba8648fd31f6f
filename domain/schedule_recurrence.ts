/**
 * The recurrence rule of scheduled messages (spec 001 §3 Schedule: `repeatEvery`,
 * `selectDaysRecorrenci`). The spec names the fields only; the rule chosen here, after the
 * product's own client ("Enviar por… 1–30 / Todo dia" and seven weekday toggles):
 *
 * - `repeatEvery` is how many MORE times the message goes out after its first send:
 *   null = once, 1–30 = that many repetitions, `REPEAT_FOREVER` (9999999, the client's
 *   "Todo dia") = no end. `repeatCount` counts the repetitions already sent.
 * - `selectDaysRecorrenci` names the weekdays a repetition may fall on, as the client sends
 *   them: English names joined by ", " ("Monday, Thursday"). Empty = every day.
 * - A repetition keeps the wall-clock time of the first `sendAt` in the company's time zone
 *   (a 09:00 message stays at 09:00 across a DST change) and falls on the first selected
 *   weekday after the previous occurrence, at least one day later.
 * - Occurrences missed while the server was down are not sent in a burst: the late one goes
 *   out when the server is back and the next is the first selected day still in the future.
 * Pure: every function takes the clock.
 */
import { DEFAULT_TIME_ZONE } from "./schedule_hours.ts";

/** The weekday names `selectDaysRecorrenci` holds, Sunday first (`Date#getUTCDay` order). */
export const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;
export type Weekday = typeof WEEKDAYS[number];

/** `repeatEvery` of a recurrence without end (the client's "Todo dia"). */
export const REPEAT_FOREVER = 9999999;
/** Largest finite `repeatEvery` the dialog offers. */
export const MAX_REPEAT = 30;

const DAY_MS = 24 * 3600 * 1000;

/**
 * The weekdays of a `selectDaysRecorrenci` value (text "Monday, Friday" or a list; names
 * case-insensitive), in week order without repeats; null when a name is not a weekday.
 */
export function parseDays(raw: string | readonly string[] | null | undefined): Weekday[] | null {
  const parts = (typeof raw === "string" ? raw.split(",") : raw ?? []).map((d) => d.trim()).filter(Boolean);
  const found = new Set<Weekday>();
  for (const part of parts) {
    const day = WEEKDAYS.find((w) => w.toLowerCase() === part.toLowerCase());
    if (!day) return null;
    found.add(day);
  }
  return WEEKDAYS.filter((d) => found.has(d));
}

/** The stored text of a day list ("Monday, Friday"; "" for none). */
export function daysText(days: readonly Weekday[]): string {
  return days.join(", ");
}

/** Wall-clock parts of an instant in a time zone. */
interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function wallClock(ms: number, timeZone: string): WallClock {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    });
    formats.set(timeZone, format);
  }
  const parts: Record<string, number> = {};
  for (const p of format.formatToParts(new Date(ms))) parts[p.type] = Number(p.value);
  return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute, second: parts.second };
}

/** How far `timeZone`'s wall clock is ahead of UTC at instant `ms`, in ms. */
function zoneOffset(ms: number, timeZone: string): number {
  const w = wallClock(ms, timeZone);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant a wall-clock time of `timeZone` names (`month` 1–12; a day past the month's end
 * rolls over). A time skipped by a DST jump resolves to the instant one offset later.
 */
export function zonedInstant(clock: WallClock, timeZone = DEFAULT_TIME_ZONE): number {
  const asUtc = Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute, clock.second);
  const first = asUtc - zoneOffset(asUtc, timeZone);
  return asUtc - zoneOffset(first, timeZone);
}

/**
 * Reads a `sendAt` as the API takes it: milliseconds, ISO text with a zone, or a zone-less
 * "YYYY-MM-DDTHH:mm[:ss]" / "YYYY-MM-DD HH:mm:ss" (the spec's client formats it so), read as
 * the company's wall clock. NaN when it is none of these.
 */
export function parseSendAt(raw: unknown, timeZone = DEFAULT_TIME_ZONE): number {
  if (typeof raw === "number") return Number.isFinite(raw) ? raw : NaN;
  if (typeof raw !== "string" || raw.trim() === "") return NaN;
  const text = raw.trim();
  const local = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?$/.exec(text);
  if (local) {
    const [, y, mo, d, h, mi, s] = local.map(Number);
    return zonedInstant({ year: y, month: mo, day: d, hour: h, minute: mi, second: s || 0 }, timeZone);
  }
  return Date.parse(text);
}

/** The weekday of an instant in `timeZone`. */
export function weekdayOf(ms: number, timeZone = DEFAULT_TIME_ZONE): Weekday {
  const w = wallClock(ms, timeZone);
  return WEEKDAYS[new Date(Date.UTC(w.year, w.month - 1, w.day)).getUTCDay()];
}

/**
 * The next occurrence of a recurrence whose occurrence was `last`: the same wall-clock time
 * on the first day in `days` (any day when empty) at least one day after `last` and later
 * than `notBefore`.
 */
export function nextOccurrence(
  last: number,
  days: readonly Weekday[],
  notBefore: number,
  timeZone = DEFAULT_TIME_ZONE,
): number {
  const clock = wallClock(last, timeZone);
  const allowed = days.length === 0 ? new Set<Weekday>(WEEKDAYS) : new Set(days);
  // Skip whole days already past (a long outage) instead of walking them one by one.
  const skip = Math.max(1, Math.floor((notBefore - last) / DAY_MS));
  for (let k = skip; k < skip + 9; k++) {
    const at = zonedInstant({ ...clock, day: clock.day + k }, timeZone) + (last % 1000);
    if (at > notBefore && allowed.has(weekdayOf(at, timeZone))) return at;
  }
  throw new Error(`No occurrence after ${new Date(notBefore).toISOString()} on ${[...allowed].join(", ")}`);
}

/** What a recurrence needs of a schedule. */
export interface Recurrence {
  sendAt: number;
  repeatEvery: number | null;
  repeatCount: number;
  selectDaysRecorrenci: string;
}

/**
 * After a successful send at `now` of the occurrence due at `sendAt`: the next due time,
 * or null when the series is over.
 */
export function nextAfterSend(s: Recurrence, now: number, timeZone = DEFAULT_TIME_ZONE): number | null {
  if (s.repeatEvery === null || s.repeatEvery <= 0 || s.repeatCount >= s.repeatEvery) return null;
  const days = parseDays(s.selectDaysRecorrenci) ?? [];
  return nextOccurrence(s.sendAt, days, now, timeZone);
}
