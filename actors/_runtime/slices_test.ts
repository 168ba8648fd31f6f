/** Unit tests of the background turns (slices.ts). */
import assert from "node:assert/strict";
import { REST_MS, SLICE_MS, SliceTurns, UPKEEP_REST_MS } from "./slices.ts";

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

/** Holds the event loop `ms`, as a long slice or a collection would. */
function hold(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) { /* busy */ }
}

Deno.test("SliceTurns never runs two slices back to back when a long turn made both jobs due at once", async () => {
  const turns = new SliceTurns();
  const ends: number[] = [];
  const starts: number[] = [];
  const job = async () => {
    await turns.rest();
    starts.push(performance.now());
    hold(SLICE_MS);
    ends.push(performance.now());
    void turns.rest();
  };
  const both = Promise.all([job(), job()]);
  // Both timers fall due during this hold: without the rule their slices ran in one turn.
  hold(SLICE_MS + 3 * REST_MS + 10);
  await both;
  const [first, second] = starts[0] <= starts[1] ? [0, 1] : [1, 0];
  const gap = starts[second] - ends[first];
  assert.ok(gap >= REST_MS - 0.5, `the second slice began ${gap.toFixed(2)} ms after the first ended`);
});

Deno.test("SliceTurns.restLonger() pauses upkeep longer, and a job resting the usual way meanwhile is not held behind it", async () => {
  const turns = new SliceTurns();
  const t0 = performance.now();
  const upkeep = turns.restLonger().then(() => performance.now() - t0);
  const usual = turns.rest().then(() => performance.now() - t0);
  const [upkeepAt, usualAt] = await Promise.all([upkeep, usual]);
  assert.ok(upkeepAt >= UPKEEP_REST_MS + REST_MS - 1, `upkeep resumed ${upkeepAt.toFixed(1)} ms in`);
  assert.ok(usualAt < upkeepAt, `the usual job resumed at ${usualAt.toFixed(1)} ms, upkeep at ${upkeepAt.toFixed(1)} ms`);
});
