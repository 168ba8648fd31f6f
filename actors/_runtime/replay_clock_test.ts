import assert from "node:assert/strict";
import { defineActor } from "./actor.ts";
import { ReplayClock } from "./replay_clock.ts";
import { withSystem } from "./testing.ts";

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 5, 12);

/** An actor that records the `now` each handler ran at and arms a timer a minute later. */
function clockKind() {
  const rang: number[] = [];
  const def = defineActor({
    kind: "test_replay_clock",
    load: () => Promise.resolve({}),
    handlers: {
      async stamp(ctx, pause: number) {
        // A handler that awaits: the next messages queue behind it, sent from other lanes.
        if (pause > 0) await new Promise((r) => setTimeout(r, pause));
        ctx.setTimer(`t${ctx.now}`, ctx.now + 60_000, "ring", ctx.now + 60_000);
        return ctx.now;
      },
      ring(ctx, due: number) {
        rang.push(ctx.now - due);
      },
    },
  });
  return { def, rang };
}

const options = (clock: ReplayClock) => ({ now: clock.now, senderNow: clock.senderNow, timersNow: clock.sharedNow });

Deno.test("ReplayClock lanes: each message's handler runs at its sender's time, one mailbox serving them all", async () => {
  const clock = new ReplayClock();
  await withSystem(async ({ system }) => {
    const { def } = clockKind();
    const ref = system.ref(def, "desk");
    clock.replayAt(T0 - DAY);
    // The first message holds the mailbox while the others, from other lanes, queue behind it.
    const times = [T0, T0 + 3 * DAY, T0 + DAY, T0 + 2 * DAY];
    const stamps = await Promise.all(times.map((at, i) => clock.inLane(at, () => ref.ask("stamp", i === 0 ? 30 : 0))));
    assert.deepEqual(stamps, times);
    // Outside the lanes, the shared replayed time; released, the wall's.
    assert.equal(await ref.ask("stamp", 0), T0 - DAY);
    clock.release();
    assert.ok(Math.abs((await ref.ask("stamp", 0)) - Date.now()) < 1000);
  }, options(clock));
});

Deno.test("ReplayClock: timers armed in lanes ring by the shared time, each at its own due time", async () => {
  const clock = new ReplayClock();
  await withSystem(async ({ system }) => {
    const { def, rang } = clockKind();
    const ref = system.ref(def, "desk");
    clock.replayAt(T0 - DAY);
    await Promise.all([T0, T0 + DAY].map((at) => clock.inLane(at, () => ref.ask("stamp", 0))));
    // The lanes are ahead of the shared time: nothing is due yet.
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(rang, []);
    assert.equal(system.alarms.nextDue(), T0 + 60_000);
    // Stepped to each due time, each timer rings there (its handler's now is its due time).
    for (let due = system.alarms.nextDue(); due !== undefined; due = system.alarms.nextDue()) {
      clock.replayAt(due);
      system.alarms.wake();
      await new Promise((r) => setTimeout(r, 0));
      await system.idle();
    }
    assert.deepEqual(rang, [0, 0]);
  }, options(clock));
});

Deno.test("ReplayClock.replayAt() never runs the shared time backwards", () => {
  const clock = new ReplayClock();
  assert.equal(clock.replaying, false);
  assert.equal(clock.replayAt(T0), T0);
  assert.equal(clock.replayAt(T0 - 5), T0);
  assert.equal(clock.now(), T0);
  assert.equal(clock.replaying, true);
});
