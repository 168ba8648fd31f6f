import assert from "node:assert/strict";
import { emptyPacer, nextSlot, PACING_WINDOW_MS } from "./pacing.ts";

Deno.test("nextSlot() grants slots at once under the cap and keeps them in order", () => {
  let state = emptyPacer();
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const slot = nextSlot(state, 1000, { perMinute: 10, jitterMs: 0 }, 0.5);
    state = slot.state;
    times.push(slot.at);
  }
  assert.deepEqual(times, [1000, 1000, 1000, 1000, 1000]);
});

Deno.test("nextSlot() pushes the send past the window when the per-minute cap is reached", () => {
  let state = emptyPacer();
  const config = { perMinute: 3, jitterMs: 0 };
  const times: number[] = [];
  for (let i = 0; i < 7; i++) {
    const slot = nextSlot(state, 0, config, 0);
    state = slot.state;
    times.push(slot.at);
  }
  assert.deepEqual(times, [0, 0, 0, 60_000, 60_000, 60_000, 120_000]);
  for (let i = 0; i < times.length; i++) {
    const inWindow = times.filter((t) => t <= times[i] && t > times[i] - PACING_WINDOW_MS);
    assert.ok(inWindow.length <= 3, `window at ${times[i]} holds ${inWindow.length}`);
  }
});

Deno.test("nextSlot() adds jitter scaled by the random number and never goes back in time", () => {
  const config = { perMinute: 100, jitterMs: 2000 };
  const a = nextSlot(emptyPacer(), 10_000, config, 0.5);
  assert.equal(a.at, 11_000);
  const b = nextSlot(a.state, 10_500, config, 0);
  assert.equal(b.at, 11_000, "a later request never gets an earlier slot");
  const c = nextSlot(b.state, 50_000, config, 0.9999999);
  assert.ok(c.at >= 50_000 && c.at < 52_000);
});

Deno.test("nextSlot() forgets slots older than the window", () => {
  let state = emptyPacer();
  for (let i = 0; i < 50; i++) state = nextSlot(state, i * 10_000, { perMinute: 2, jitterMs: 0 }, 0).state;
  assert.ok(state.slots.length <= 7);
});
