import assert from "node:assert/strict";
import { isOpen, localClock, outOfHours } from "./schedule_hours.ts";
import { DEFAULT_LUNCH, DEFAULT_SCHEDULES } from "./queue.ts";

const hours = { schedules: DEFAULT_SCHEDULES, lunchHour: DEFAULT_LUNCH };

Deno.test("isOpen() follows the weekday hours and closes at lunch", () => {
  assert.equal(isOpen(hours, { weekdayEn: "monday", minutes: 9 * 60 }), true);
  assert.equal(isOpen(hours, { weekdayEn: "monday", minutes: 7 * 60 + 59 }), false);
  assert.equal(isOpen(hours, { weekdayEn: "monday", minutes: 18 * 60 }), false);
  assert.equal(isOpen(hours, { weekdayEn: "monday", minutes: 12 * 60 + 30 }), false);
  assert.equal(isOpen(hours, { weekdayEn: "saturday", minutes: 11 * 60 }), true);
  assert.equal(isOpen(hours, { weekdayEn: "saturday", minutes: 14 * 60 }), false);
  assert.equal(isOpen(hours, { weekdayEn: "sunday", minutes: 10 * 60 }), false, "00:00-00:00 is closed");
  assert.equal(isOpen({ schedules: [] }, { weekdayEn: "sunday", minutes: 0 }), true);
});

Deno.test("outOfHours() uses the company or queue hours per scheduleType", () => {
  const night = { weekdayEn: "tuesday", minutes: 22 * 60 };
  const open = { schedules: [] };
  assert.equal(outOfHours("disabled", hours, hours, night), false);
  assert.equal(outOfHours("company", hours, open, night), true);
  assert.equal(outOfHours("company", open, hours, night), false);
  assert.equal(outOfHours("queue", open, hours, night), true);
  assert.equal(outOfHours("queue", hours, undefined, night), false);
});

Deno.test("localClock() reads the wall clock of the time zone", () => {
  // 2026-11-23 is a Monday; 12:30 UTC is 09:30 in São Paulo (UTC-3).
  const clock = localClock(Date.UTC(2026, 10, 23, 12, 30), "America/Sao_Paulo");
  assert.deepEqual(clock, { weekdayEn: "monday", minutes: 9 * 60 + 30 });
});
