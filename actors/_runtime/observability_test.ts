/**
 * The kernel's ports for metrics (issue #40): the committer's `onCommit` (latency, mutations,
 * units per atomic), the alarm clock's `onRing` (how late a timer rings), and the system's
 * reads of its mailboxes and live states. The kernel knows no metrics library; server/metrics
 * wires these.
 */
import assert from "node:assert/strict";
import { defineActor } from "./actor.ts";
import { waitFor, withSystem } from "./testing.ts";

/** A counter whose `inc` writes one key and whose `slow` waits for a gate. */
const counter = defineActor({
  kind: "obs_counter",
  load: () => Promise.resolve({ n: 0 }),
  handlers: {
    inc(ctx) {
      ctx.state.n++;
      ctx.set(["obs", ctx.id], ctx.state.n);
      return ctx.state.n;
    },
    async slow(_ctx, gate: Promise<void>) {
      await gate;
    },
    arm(ctx, inMs: number) {
      ctx.setTimer("t", ctx.now + inMs, "fire");
    },
    fire(ctx) {
      ctx.state.n = -1;
    },
  },
});

Deno.test("GroupCommitter.onCommit() is told each atomic's latency, mutations and units", async () => {
  await withSystem(async ({ system }) => {
    const commits: Array<{ ms: number; mutations: number; units: number }> = [];
    system.committer.onCommit = (ms, mutations, units) => commits.push({ ms, mutations, units });
    await Promise.all(Array.from({ length: 20 }, (_, i) => system.ref(counter, `c${i}`).ask("inc", null)));
    assert.equal(commits.reduce((sum, c) => sum + c.units, 0), 20);
    assert.equal(commits.reduce((sum, c) => sum + c.mutations, 0), 20);
    assert.ok(commits.length < 20, `20 writers share atomics: ${commits.length}`);
    assert.ok(commits.every((c) => c.ms >= 0));
    assert.equal(system.committer.stats.units, 20);
  });
});

Deno.test("AlarmClock.onRing() is told how late each due timer rings", async () => {
  let now = 1_000_000;
  await withSystem(async ({ system }) => {
    const late: number[] = [];
    system.alarms.onRing = (ms) => late.push(ms);
    await system.ref(counter, "t1").ask("arm", 50);
    // The clock jumps 250 ms past the due time before the alarm's wait ends.
    now += 300;
    await waitFor(() => late.length === 1, "the alarm to ring");
    assert.equal(late[0], 250);
    await waitFor(async () => (await system.ref(counter, "t1").peek<{ n: number }>()).n === -1, "the timer's handler");
  }, { now: () => now });
});

Deno.test("ActorSystem.deepestMailboxes() lists the deepest queues, deepest first, by kind", async () => {
  await withSystem(async ({ system }) => {
    const gate = Promise.withResolvers<void>();
    const work: Promise<unknown>[] = [];
    // Actor a: one running and 4 queued; b: one running and 2 queued; c: one running.
    for (const [id, queued] of [["a", 4], ["b", 2], ["c", 0]] as const) {
      const ref = system.ref(counter, id);
      work.push(ref.ask("slow", gate.promise));
      for (let i = 0; i < queued; i++) work.push(ref.ask("inc", null));
    }
    await waitFor(() => system.deepestMailboxes(5).length === 2, "the queued messages");
    assert.deepEqual(system.deepestMailboxes(5), [{ kind: "obs_counter", depth: 4 }, { kind: "obs_counter", depth: 2 }]);
    assert.deepEqual(system.deepestMailboxes(1), [{ kind: "obs_counter", depth: 4 }]);
    assert.equal(system.inflight, 9);
    gate.resolve();
    await Promise.all(work);
    assert.deepEqual(system.deepestMailboxes(5), []);
    assert.equal(system.inflight, 0);
  });
});

Deno.test("ActorSystem.liveStates() reads loaded actors of a kind without activating or touching them", async () => {
  let now = 1_000_000;
  await withSystem(async ({ system }) => {
    await system.ref(counter, "x").ask("inc", null);
    await system.ref(counter, "y").ask("inc", null);
    await system.ref(counter, "y").ask("inc", null);
    const states = new Map(system.liveStates<{ n: number }>(counter));
    assert.deepEqual([...states].map(([id, s]) => [id, s.n]).sort(), [["x", 1], ["y", 2]]);
    // Reading them is no use: idle past their time, they still passivate at the next sweep
    // (a peek at this point would keep them another five minutes).
    now += 10 * 60_000;
    assert.equal([...system.liveStates(counter)].length, 2);
    await waitFor(() => system.liveActors === 0, "the sweep to passivate them");
    assert.equal([...system.liveStates(counter)].length, 0);
  }, { now: () => now, sweepMs: 20 });
});
