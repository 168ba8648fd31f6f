/**
 * The company's opening hours as the Horários tab edits them (spec 001 §2.5, §3
 * `scheduleType` "company"): Monday to Sunday, each a start and an end in HH:MM (the ##:##
 * mask), plus the lunch hour. The API body (`CompanyHoursInput`, PUT /companies/{id}/schedules)
 * and the tab's flat form (`CompanyHoursForm`, one field per input so each shows its own
 * message) share one time rule and one message. How the hours are applied is
 * ./schedule_hours.ts: a day whose start equals its end is closed, an end before the start
 * runs to midnight — so day times are not ordered here; only the lunch must not end before
 * it starts (it would silently be ignored).
 */
import { z } from "zod";
import type { WeekdaySchedule } from "./company.ts";
import { DEFAULT_LUNCH, DEFAULT_SCHEDULES } from "./queue.ts";
import { MAX } from "./text.ts";

/** The message of a time that is not HH:MM on a 24-hour clock. */
export const HOURS_TIME_MESSAGE = "Invalid time: use HH:MM from 00:00 to 23:59";

/** The message of a lunch that ends before it starts. */
export const LUNCH_ORDER_MESSAGE = "The lunch hour must end after it starts";

/** The weekdays in the form's order, by their stored English name. */
export const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;
export type Weekday = typeof WEEKDAYS[number];

/** HH:MM, 00:00 to 23:59. */
export const HoursTime = z.string({ error: HOURS_TIME_MESSAGE }).max(MAX.shortText, HOURS_TIME_MESSAGE).trim().regex(/^([01]\d|2[0-3]):[0-5]\d$/, HOURS_TIME_MESSAGE);

const Lunch = z.object({ startTime: HoursTime, endTime: HoursTime })
  .refine((l) => l.endTime >= l.startTime, { message: LUNCH_ORDER_MESSAGE, path: ["endTime"] });

/** PUT /companies/{id}/schedules body: up to seven distinct weekdays and the lunch hour. */
export const CompanyHoursInput = z.object({
  id: z.coerce.number().int().optional(),
  schedules: z.array(z.object({
    weekday: z.string().trim().max(30).default(""),
    weekdayEn: z.enum(WEEKDAYS, { error: "Unknown weekday" }),
    startTime: HoursTime,
    endTime: HoursTime,
  })).max(7).refine((days) => new Set(days.map((d) => d.weekdayEn)).size === days.length, "Each weekday once"),
  lunchHour: Lunch.nullable().optional(),
});
export type CompanyHoursInput = z.infer<typeof CompanyHoursInput>;

/** The tab's form: `{day}Start`, `{day}End` for each weekday, `lunchStart`, `lunchEnd`. */
export const CompanyHoursForm = z.object(Object.fromEntries([
  ...WEEKDAYS.flatMap((d) => [[`${d}Start`, HoursTime], [`${d}End`, HoursTime]]),
  ["lunchStart", HoursTime],
  ["lunchEnd", HoursTime],
])).refine((v) => String(v.lunchEnd) >= String(v.lunchStart), { message: LUNCH_ORDER_MESSAGE, path: ["lunchEnd"] });

/** The form's values. */
export type CompanyHoursValues = Record<string, string>;

/**
 * The form's values from stored hours; a weekday never stored takes the default of spec 001
 * §3 (08:00–18:00 on weekdays, 08:00–12:00 on Saturday, closed on Sunday, lunch 12:00–13:00).
 */
export function hoursToForm(
  schedules: readonly WeekdaySchedule[],
  lunchHour: { startTime: string; endTime: string } | null,
): CompanyHoursValues {
  const values: CompanyHoursValues = {};
  for (const day of WEEKDAYS) {
    const stored = schedules.find((s) => s.weekdayEn.toLowerCase() === day) ??
      DEFAULT_SCHEDULES.find((s) => s.weekdayEn === day)!;
    values[`${day}Start`] = stored.startTime;
    values[`${day}End`] = stored.endTime;
  }
  const lunch = lunchHour ?? DEFAULT_LUNCH;
  values.lunchStart = lunch.startTime;
  values.lunchEnd = lunch.endTime;
  return values;
}

/** The PUT body for the form's values (Portuguese weekday names as the spec's client stores them). */
export function formToHours(values: CompanyHoursValues): Pick<CompanyHoursInput, "schedules" | "lunchHour"> {
  return {
    schedules: WEEKDAYS.map((day) => ({
      weekday: DEFAULT_SCHEDULES.find((s) => s.weekdayEn === day)!.weekday,
      weekdayEn: day,
      startTime: values[`${day}Start`],
      endTime: values[`${day}End`],
    })),
    lunchHour: { startTime: values.lunchStart, endTime: values.lunchEnd },
  };
}
