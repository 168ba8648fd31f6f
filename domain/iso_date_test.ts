import assert from "node:assert/strict";
import { isoDate, isoText } from "./iso_date.ts";

Deno.test("isoText() writes what toISOString writes, across years, leap days and every millisecond digit", () => {
  const samples = [0, 1, 999, 86_399_999, 951_782_400_000, 1_763_800_000_123, 253_402_300_799_999, -1, -62_135_596_800_000, 253_402_300_800_000];
  for (let i = 0; i < 5000; i++) samples.push(Math.floor(Math.random() * 253_402_300_799_999));
  for (const ms of samples) assert.equal(isoText(ms), new Date(ms).toISOString(), String(ms));
  assert.throws(() => isoText(Number.NaN), RangeError);
});

Deno.test("isoText() stays right when seconds repeat, follow each other and share a memo slot", () => {
  const base = 1_763_800_000_000;
  for (let ms = base - 3000; ms < base + 3000; ms += 7) assert.equal(isoText(ms), new Date(ms).toISOString());
  for (const k of [0, 256, 512, 0, 256]) {
    const ms = base + k * 1000 + k;
    assert.equal(isoText(ms), new Date(ms).toISOString());
  }
  assert.equal(isoText(1.5), new Date(1.5).toISOString());
});

Deno.test("isoDate() keeps null and undefined as null", () => {
  assert.equal(isoDate(null), null);
  assert.equal(isoDate(undefined), null);
  assert.equal(isoDate(0), "1970-01-01T00:00:00.000Z");
});
