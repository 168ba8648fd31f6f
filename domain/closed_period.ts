/**
 * Which closed period a moment falls in (issue #17: the out-of-hours message goes once per
 * conversation per closed period). A closed period is named by the opening that ends it —
 * "2025-03-04@480" is the stretch that ends Tuesday 4 March at 08:00 — so a customer who
 * writes at 19:00 and again at 07:00 is told once, and told again the next night. Times are
 * the company's wall clock in its time zone (schedule_hours.ts rules: a day whose start equals
 * its end is closed, an end before the start runs to midnight, the lunch hour is closed).
 */
import { DEFAULT_TIME_ZONE, isOpen, localClock, type OpeningHours, toMinutes } from "./schedule_hours.ts";

const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];

/** Formatters of the local date by time zone (building one is costly; they are immutable). */
const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** The local calendar date of `ms` in `timeZone` as YYYY-MM-DD. */
export function localDate(ms: number, timeZone = DEFAULT_TIME_ZONE): string {
  let format = dateFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    dateFormats.set(timeZone, format);
  }
  return format.format(new Date(ms));
}

/**
 * Zones found valid. Asking Intl builds a formatter (≈ 0.5 ms, a third of a dashboard
 * request's server time); only successes are kept, so the set is bounded by the IANA list.
 */
const knownZones = new Set<string>();

/** Whether `timeZone` is an IANA zone this runtime knows. */
export function validTimeZone(timeZone: string): boolean {
  if (knownZones.has(timeZone)) return true;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
    knownZones.add(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The company's time zone: setting `timezone` when it names a known zone, else Brazil's. */
export function companyTimeZone(settings: Readonly<Record<string, string>>): string {
  const zone = settings.timezone?.trim();
  return zone && validTimeZone(zone) ? zone : DEFAULT_TIME_ZONE;
}

/** The date `days` after `date` (YYYY-MM-DD) and its English weekday. */
function dayAfter(date: string, days: number): { date: string; weekdayEn: string } {
  const [y, m, d] = date.split("-").map(Number);
  const at = new Date(Date.UTC(y, m - 1, d + days));
  return { date: at.toISOString().slice(0, 10), weekdayEn: WEEKDAYS[at.getUTCDay()] };
}

/** The minutes at which the hours open on `weekdayEn` (the day's start and the lunch's end). */
function openingsOn(hours: OpeningHours, weekdayEn: string): number[] {
  const day = hours.schedules.find((s) => s.weekdayEn.toLowerCase() === weekdayEn);
  if (!day) return [];
  const start = toMinutes(day.startTime);
  let end = toMinutes(day.endTime);
  if (!Number.isFinite(start) || !Number.isFinite(end) || start === end) return [];
  if (end < start) end = 24 * 60;
  const out = [start];
  const lunch = hours.lunchHour;
  if (lunch) {
    const ls = toMinutes(lunch.startTime);
    const le = toMinutes(lunch.endTime);
    if (ls < le && le > start && le < end) {
      if (ls <= start) out[0] = le; // the lunch covers the opening: the day opens after it
      else out.push(le);
    }
  }
  return out;
}

/**
 * The key of the closed period `ms` falls in, or null when the hours are open then. Hours
 * that never open again within a week give one key, "never": told once per conversation.
 */
export function closedPeriodKey(hours: OpeningHours, ms: number, timeZone = DEFAULT_TIME_ZONE): string | null {
  const clock = localClock(ms, timeZone);
  if (isOpen(hours, clock)) return null;
  const today = localDate(ms, timeZone);
  for (let d = 0; d <= 7; d++) {
    const { date, weekdayEn } = dayAfter(today, d);
    const next = openingsOn(hours, weekdayEn).find((m) => d > 0 || m > clock.minutes);
    if (next !== undefined) return `${date}@${next}`;
  }
  return "never";
}
