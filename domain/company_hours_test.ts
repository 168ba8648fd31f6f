import assert from "node:assert/strict";
import { CompanyHoursForm, CompanyHoursInput, formToHours, hoursToForm, HOURS_TIME_MESSAGE, LUNCH_ORDER_MESSAGE } from "./company_hours.ts";

Deno.test("hoursToForm() fills missing days with the spec's defaults; formToHours() gives a valid PUT body back", () => {
  const form = hoursToForm([{ weekday: "Segunda-feira", weekdayEn: "monday", startTime: "09:00", endTime: "17:00" }], null);
  assert.equal(form.mondayStart, "09:00");
  assert.equal(form.saturdayEnd, "12:00");
  assert.equal(form.sundayStart, "00:00");
  assert.equal(form.lunchEnd, "13:00");
  const body = formToHours(form);
  assert.equal(body.schedules.length, 7);
  assert.equal(body.schedules[0].weekday, "Segunda-feira");
  assert.equal(CompanyHoursInput.safeParse(body).success, true);
  assert.deepEqual(hoursToForm(body.schedules, body.lunchHour ?? null), form);
});

Deno.test("CompanyHoursForm checks HH:MM and the lunch order with the server's messages", () => {
  const form = hoursToForm([], null);
  const bad = CompanyHoursForm.safeParse({ ...form, fridayEnd: "24:00", lunchStart: "15:00" });
  assert.equal(bad.success, false);
  const messages = Object.fromEntries(bad.error!.issues.map((i) => [i.path.join("."), i.message]));
  assert.equal(messages.fridayEnd, HOURS_TIME_MESSAGE);
  assert.equal(CompanyHoursForm.safeParse({ ...form, lunchStart: "15:00" }).error?.issues[0].message, LUNCH_ORDER_MESSAGE);
});
