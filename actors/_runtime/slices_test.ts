/** Unit tests of the background turns (slices.ts). */
import assert from "node:assert/strict";
import { REST_MS, SLICE_MS, SliceTurns } from "./slices.ts";

Deno.test("SliceTurns spaces the slices of every job resting through it by a slice and a rest", async () => {
  const turns = new SliceTurns();
  const t0 = performance.now();
  const starts = await Promise.all([turns.rest(), turns.rest(), turns.rest()].map((rest) => rest.then(() => performance.now() - t0)));
  for (let i = 0; i < starts.length; i++) {
    // Timers may fire late, never early: job i begins after the first rest and i slices and rests.
    const earliest = REST_MS + i * (SLICE_MS + REST_MS);
    assert.ok(starts[i] >= earliest - 1, `job ${i} began ${starts[i]} ms in, before ${earliest} ms`);
  }
});
