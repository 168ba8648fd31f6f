import assert from "node:assert/strict";
import { dayAround, formatInZone, fromWallClock, utcOffsetText, wallClock } from "./zoned_time.ts";

const SP = "America/Sao_Paulo";

Deno.test("wallClock() and fromWallClock() read the company's clock, not the machine's", () => {
  const eight = Date.UTC(2026, 10, 29, 11, 0); // 08:00 in São Paulo (UTC−3)
  assert.equal(wallClock(eight, SP), "2026-11-29T08:00");
  assert.equal(fromWallClock("2026-11-29T08:00", SP), eight);
  assert.equal(fromWallClock("2026-11-29", SP), Date.UTC(2026, 10, 29, 3, 0));
  assert.ok(Number.isNaN(fromWallClock("29/11/2026", SP)));
  assert.equal(formatInZone(eight, SP), "29/11/2026 08:00");
  assert.equal(utcOffsetText(eight, SP), "UTC−03:00");
  assert.equal(utcOffsetText(eight, "UTC"), "UTC+00:00");
});

Deno.test("dayAround() is the company's local day", () => {
  const twoAm = Date.UTC(2026, 10, 29, 5, 0); // 02:00 in São Paulo
  assert.deepEqual(dayAround(twoAm, SP), [Date.UTC(2026, 10, 29, 3, 0), Date.UTC(2026, 10, 30, 3, 0)]);
});
