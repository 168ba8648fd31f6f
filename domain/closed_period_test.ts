/** Unit tests of the closed-period key (domain/closed_period.ts) on fixed instants. */
import assert from "node:assert/strict";
import { closedPeriodKey, localDate } from "./closed_period.ts";
import { DEFAULT_SCHEDULES, DEFAULT_LUNCH } from "./queue.ts";

const hours = { schedules: DEFAULT_SCHEDULES, lunchHour: DEFAULT_LUNCH };
// São Paulo is UTC-3 (no daylight saving since 2019).
const sp = (iso: string) => Date.parse(`${iso}-03:00`);

Deno.test("closedPeriodKey() is null while open and names the next opening while closed", () => {
  assert.equal(closedPeriodKey(hours, sp("2025-03-04T10:00:00")), null); // Tuesday morning
  assert.equal(closedPeriodKey(hours, sp("2025-03-04T19:00:00")), "2025-03-05@480");
  assert.equal(closedPeriodKey(hours, sp("2025-03-05T07:00:00")), "2025-03-05@480", "the same night, after midnight");
  assert.equal(closedPeriodKey(hours, sp("2025-03-04T12:30:00")), "2025-03-04@780", "the lunch hour");
});

Deno.test("closedPeriodKey() spans the weekend: Saturday afternoon to Monday 08:00", () => {
  assert.equal(closedPeriodKey(hours, sp("2025-03-08T13:00:00")), "2025-03-10@480");
  assert.equal(closedPeriodKey(hours, sp("2025-03-09T11:00:00")), "2025-03-10@480");
});

Deno.test("closedPeriodKey() follows the time zone; hours that never open give one key", () => {
  const at = Date.parse("2025-03-04T13:00:00Z"); // 10:00 in São Paulo, 14:00 in Lisbon
  assert.equal(closedPeriodKey(hours, at, "America/Sao_Paulo"), null);
  assert.equal(localDate(at, "Asia/Tokyo"), "2025-03-04");
  assert.equal(closedPeriodKey(hours, Date.parse("2025-03-04T23:30:00Z"), "Europe/Lisbon"), "2025-03-05@480");
  const never = { schedules: DEFAULT_SCHEDULES.map((d) => ({ ...d, startTime: "00:00", endTime: "00:00" })), lunchHour: null };
  assert.equal(closedPeriodKey(never, at), "never");
});
