/**
 * Opening hours (spec 001 §2.5, §3 `scheduleType`): whether a moment falls outside the
 * company's or a queue's hours. Times are the company's wall clock; `localClock` converts
 * an instant with the time zone (Brazil's by default, as the spec's product is Brazilian).
 */
export interface DaySchedule {
  weekdayEn: string;
  startTime: string;
  endTime: string;
}

export interface OpeningHours {
  schedules: readonly DaySchedule[];
  lunchHour?: { startTime: string; endTime: string } | null;
}

/** A wall-clock moment: lower-case English weekday and minutes since midnight. */
export interface LocalClock {
  weekdayEn: string;
  minutes: number;
}

/** The default zone of the company's wall clock. */
export const DEFAULT_TIME_ZONE = "America/Sao_Paulo";

/** "HH:MM" → minutes since midnight (NaN when malformed). */
export function toMinutes(time: string): number {
  const match = /^(\d{1,2}):(\d{2})$/.exec(time.trim());
  return match ? Number(match[1]) * 60 + Number(match[2]) : NaN;
}

/** Formatters by time zone: building one is costly (≈ 0.1 ms) and they are immutable. */
const formats = new Map<string, Intl.DateTimeFormat>();

/** The wall clock of `ms` in `timeZone`. */
export function localClock(ms: number, timeZone = DEFAULT_TIME_ZONE): LocalClock {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      weekday: "long",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    formats.set(timeZone, format);
  }
  const parts = format.formatToParts(new Date(ms));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return {
    weekdayEn: get("weekday").toLowerCase(),
    minutes: Number(get("hour")) * 60 + Number(get("minute")),
  };
}

/**
 * Whether `clock` is inside the opening hours. A day without an entry, or whose start equals
 * its end ("00:00"–"00:00"), is closed; an end before the start runs to midnight; the lunch
 * hour is closed. An empty schedule list means no hours were set: always open.
 */
export function isOpen(hours: OpeningHours, clock: LocalClock): boolean {
  if (hours.schedules.length === 0) return true;
  const day = hours.schedules.find((s) => s.weekdayEn.toLowerCase() === clock.weekdayEn);
  if (!day) return false;
  const start = toMinutes(day.startTime);
  let end = toMinutes(day.endTime);
  if (!Number.isFinite(start) || !Number.isFinite(end) || start === end) return false;
  if (end < start) end = 24 * 60;
  if (clock.minutes < start || clock.minutes >= end) return false;
  const lunch = hours.lunchHour;
  if (lunch) {
    const ls = toMinutes(lunch.startTime);
    const le = toMinutes(lunch.endTime);
    if (ls < le && clock.minutes >= ls && clock.minutes < le) return false;
  }
  return true;
}

/**
 * The out-of-hours rule of a new conversation: with `scheduleType` "company" the company's
 * hours decide, with "queue" the hours of the ticket's queue (none known yet: open), and
 * with "disabled" (or anything else) it is never out of hours.
 */
export function outOfHours(
  scheduleType: string,
  company: OpeningHours,
  queue: OpeningHours | undefined,
  clock: LocalClock,
): boolean {
  if (scheduleType === "company") return !isOpen(company, clock);
  if (scheduleType === "queue") return queue ? !isOpen(queue, clock) : false;
  return false;
}
