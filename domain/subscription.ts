/**
 * The subscription gate (spec 000 §4, §9): access lasts until the due date plus 3 working
 * days (Saturdays and Sundays skipped); a warning shows when fewer than 5 days remain.
 * Dates are compared by calendar day in UTC.
 */

export const GRACE_WORKING_DAYS = 3;
export const WARNING_DAYS = 5;
const DAY = 86_400_000;

function startOfDay(ms: number): number {
  return Math.floor(ms / DAY) * DAY;
}

/** The last day (start of day, UTC ms) on which a company due on `dueDate` may still log in. */
export function graceEnd(dueDate: number): number {
  let day = startOfDay(dueDate);
  let added = 0;
  while (added < GRACE_WORKING_DAYS) {
    day += DAY;
    const weekday = new Date(day).getUTCDay();
    if (weekday !== 0 && weekday !== 6) added++;
  }
  return day;
}

/** Whether a company with this due date may use the product at `now`. A missing date never gates. */
export function subscriptionActive(dueDate: number | null, now: number): boolean {
  if (dueDate === null) return true;
  return startOfDay(now) <= graceEnd(dueDate);
}

/** Whole days from today until the due date (negative once past it). */
export function daysUntilDue(dueDate: number, now: number): number {
  return Math.round((startOfDay(dueDate) - startOfDay(now)) / DAY);
}

/** Working days left in the grace period after the due date has passed (0 once revoked). */
export function graceWorkingDaysLeft(dueDate: number, now: number): number {
  let day = startOfDay(now);
  const end = graceEnd(dueDate);
  let left = 0;
  while (day < end) {
    day += DAY;
    const weekday = new Date(day).getUTCDay();
    if (weekday !== 0 && weekday !== 6) left++;
  }
  return left;
}

/** Trial length in days from the `trial` setting: 1 to 7 (spec 001 §9), 3 when unset or invalid. */
export function trialDays(setting: string | undefined): number {
  const days = Number(setting);
  return Number.isInteger(days) && days >= 1 && days <= 7 ? days : 3;
}

/** Due date of a company signing up at `now` with a trial of `days` days. */
export function trialDueDate(now: number, days: number): number {
  return now + days * DAY;
}
