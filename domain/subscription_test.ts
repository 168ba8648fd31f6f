import assert from "node:assert/strict";
import {
  daysUntilDue,
  graceEnd,
  graceWorkingDaysLeft,
  subscriptionActive,
  trialDays,
  trialDueDate,
} from "./subscription.ts";

const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);

Deno.test("graceEnd() adds 3 working days and skips the weekend", () => {
  // 2026-11-17 is a Tuesday.
  assert.equal(graceEnd(day("2026-11-17") + 15 * 3600_000), day("2026-11-20"));
  // Thursday → Friday, Monday, Tuesday.
  assert.equal(graceEnd(day("2026-11-19")), day("2026-11-24"));
  // Friday → Monday, Tuesday, Wednesday; a Saturday due date counts from Monday too.
  assert.equal(graceEnd(day("2026-11-20")), day("2026-11-25"));
  assert.equal(graceEnd(day("2026-11-21")), day("2026-11-25"));
});

Deno.test("subscriptionActive() keeps access through the last grace day and no longer", () => {
  const due = day("2026-11-19"); // Thursday
  assert.equal(subscriptionActive(due, day("2026-11-18")), true);
  assert.equal(subscriptionActive(due, day("2026-11-20") + 12 * 3600_000), true);
  assert.equal(subscriptionActive(due, day("2026-11-22")), true); // Sunday inside the grace
  assert.equal(subscriptionActive(due, day("2026-11-24") + 86_399_000), true);
  assert.equal(subscriptionActive(due, day("2026-11-25")), false);
  assert.equal(subscriptionActive(null, day("2030-01-01")), true);
});

Deno.test("subscriptionActive() lets a company due yesterday (a Tuesday) in on Wednesday", () => {
  assert.equal(subscriptionActive(day("2026-11-17"), day("2026-11-18") + 9 * 3600_000), true);
});

Deno.test("daysUntilDue() and graceWorkingDaysLeft() count calendar and working days", () => {
  assert.equal(daysUntilDue(day("2026-11-25"), day("2026-11-20") + 3600_000), 5);
  assert.equal(daysUntilDue(day("2026-11-19"), day("2026-11-20")), -1);
  assert.equal(graceWorkingDaysLeft(day("2026-11-19"), day("2026-11-20")), 2);
  assert.equal(graceWorkingDaysLeft(day("2026-11-19"), day("2026-11-25")), 0);
});

Deno.test("trialDays() reads the trial setting as 1 to 7 days, 3 otherwise", () => {
  assert.equal(trialDays(undefined), 3);
  assert.equal(trialDays("7"), 7);
  assert.equal(trialDays("0"), 3);
  assert.equal(trialDays("8"), 3);
  assert.equal(trialDays("abc"), 3);
  assert.equal(trialDueDate(day("2026-11-20"), 3), day("2026-11-23"));
});
