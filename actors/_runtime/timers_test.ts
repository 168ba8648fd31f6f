import assert from "node:assert/strict";
import { defineActor } from "./actor.ts";
import { waitFor, withSystem } from "./testing.ts";
import { ActorSystem } from "./system.ts";
import { type ArmedTimer, legacyTimerKey, timerKey, type TimerMessage } from "./timers.ts";

const DAY = 24 * 3600 * 1000;

/** An actor that arms, cancels and records firings of timers; `fired` lists their args. */
function timerKind(kind = "test_timer", failLoads = 0) {
  const fired: { arg: string; at: number }[] = [];
  let loads = 0;
  const def = defineActor({
    kind,
    load() {
      if (loads++ < failLoads) return Promise.reject(new Error("load failed"));
      return Promise.resolve({});
    },
    handlers: {
      arm(ctx, a: { timerId: string; inMs: number; arg?: string }) {
        const dueAt = ctx.now + a.inMs;
        ctx.setTimer(a.timerId, dueAt, "fire", a.arg ?? a.timerId);
        return dueAt;
      },
      cancel(ctx, timerId: string) {
        ctx.cancelTimer(timerId);
      },
      due(ctx, timerId: string) {
        return ctx.timerDue(timerId) ?? null;
      },
      fire(_ctx, arg: string) {
        fired.push({ arg, at: Date.now() });
      },
    },
  });
  const count = (arg: string) => fired.filter((f) => f.arg === arg).length;
  return { def, fired, count };
}

function message(kind: string, id: string, timerId: string, dueAt: number): TimerMessage {
  return { t: "actor-timer", kind, id, timerId, dueAt, handler: "fire", arg: timerId };
}

Deno.test("ctx.setTimer() fires the handler at the due time, once, and disarms the timer", async () => {
  await withSystem(async ({ system, kv }) => {
    const { def, fired, count } = timerKind();
    const ref = system.ref(def, "a");
    const dueAt = await ref.ask("arm", { timerId: "t", inMs: 300 });
    assert.deepEqual((await kv.get(timerKey(def.kind, "a", "t"))).value, { dueAt, handler: "fire", arg: "t" });
    await waitFor(() => count("t") === 1, "timer t");
    assert.ok(fired[0].at >= dueAt - 50, `fired ${dueAt - fired[0].at} ms early`);
    assert.equal(await ref.ask("due", "t"), null);
    await waitFor(
      async () => (await kv.get(timerKey(def.kind, "a", "t"))).value === null,
      "disarm",
    );
  });
});

Deno.test("ctx.cancelTimer() prevents the timer from firing", async () => {
  await withSystem(async ({ system }) => {
    const { def, count } = timerKind();
    const ref = system.ref(def, "a");
    // Far enough ahead that the cancel commits first even on a loaded machine.
    await ref.ask("arm", { timerId: "t", inMs: 1500 });
    await ref.ask("cancel", "t");
    await ref.ask("arm", { timerId: "sentinel", inMs: 2500 });
    await waitFor(() => count("sentinel") === 1, "sentinel");
    assert.equal(count("t"), 0);
  });
});

Deno.test("ctx.setTimer() on an armed timer replaces its due time and argument", async () => {
  await withSystem(async ({ system }) => {
    const { def, fired } = timerKind();
    const ref = system.ref(def, "a");
    await ref.ask("arm", { timerId: "t", inMs: 1500, arg: "first" });
    const dueAt = await ref.ask("arm", { timerId: "t", inMs: 2000, arg: "second" });
    assert.equal(await ref.ask("due", "t"), dueAt);
    await waitFor(() => fired.length === 1, "re-armed timer");
    await ref.ask("arm", { timerId: "sentinel", inMs: 300 });
    await waitFor(() => fired.length === 2, "sentinel");
    assert.deepEqual(fired.map((f) => f.arg), ["second", "sentinel"]);
    assert.ok(fired[0].at >= dueAt - 50);
  });
});

Deno.test("ActorSystem ignores a duplicate alarm of a fired timer and an alarm of a timer that is not armed", async () => {
  await withSystem(async ({ system }) => {
    const { def, count } = timerKind();
    const ref = system.ref(def, "a");
    const dueAt = await ref.ask("arm", { timerId: "t", inMs: 100 });
    await waitFor(() => count("t") === 1, "timer t");
    const alarm = (timerId: string, at: number) => ({ kind: def.kind, id: "a", timerId, dueAt: at, handler: "fire", arg: timerId });
    system.alarms.arm(alarm("t", dueAt));
    system.alarms.arm(alarm("never-armed", Date.now()));
    await ref.ask("arm", { timerId: "sentinel", inMs: 500 });
    system.alarms.arm(alarm("sentinel", dueAt)); // armed with another due time
    await waitFor(() => count("sentinel") === 1, "sentinel");
    assert.equal(count("t"), 1);
    assert.equal(count("never-armed"), 0);
  });
});

Deno.test("A timer armed before a restart fires once in the next system over the same store", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const { def, count } = timerKind("test_timer_restart");
    let dueAt = 0;
    await withSystem(async ({ system }) => {
      dueAt = await system.ref(def, "7:1").ask("arm", { timerId: "t", inMs: 400 });
    }, { path: `${dir}/store.kv` });
    assert.equal(count("t"), 0, "the first system closed before it was due");
    await withSystem(async ({ system, kv }) => {
      system.register(def);
      await waitFor(() => count("t") === 1, "timer after the restart");
      assert.equal((await kv.get(timerKey(def.kind, "7:1", "t"))).value, null, "spent with the firing");
    }, { path: `${dir}/store.kv` });
    assert.equal(count("t"), 1);
    assert.ok(dueAt > 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("A system that does not own every company arms only the companies it takes", async () => {
  await withSystem(async ({ system: first }) => {
    const { def, count } = timerKind("test_timer_owned");
    await first.ref(def, "3:1").ask("arm", { timerId: "t", inMs: 200 });
    await first.ref(def, "4:1").ask("arm", { timerId: "t", inMs: 200 });
    await first.close();
    const second = new ActorSystem(first.kv, { ownsAll: false });
    try {
      second.register(def);
      await new Promise((resolve) => setTimeout(resolve, 400));
      assert.equal(count("t"), 0, "nothing armed before the company is taken");
      assert.equal(await second.armTimersOf(4), 1);
      await waitFor(() => count("t") === 1, "company 4's timer");
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(count("t"), 1, "company 3's stays armed in KV");
      assert.ok((await first.kv.get<ArmedTimer>(timerKey(def.kind, "3:1", "t"))).value);
    } finally {
      await second.close();
    }
  });
});

Deno.test("An older store's timer (a key holding its due time and a queue message) fires once; an early delivery moves it to the current layout", async () => {
  // A clock that runs, and can be moved forward.
  let offset = 0;
  const now = () => Date.now() + offset;
  const kv = await Deno.openKv(":memory:");
  const { def, count } = timerKind("test_timer_legacy");
  const dueAt = now() + 40 * DAY;
  await kv.set(legacyTimerKey(def.kind, "a", "far"), dueAt);
  const system = new ActorSystem(kv, { now });
  try {
    system.register(def);
    assert.equal(await system.legacyTimers, true, "the store is seen to hold the older layout");
    // The older store's capped delivery arrives 29 days early.
    await kv.enqueue(message(def.kind, "a", "far", dueAt));
    await waitFor(async () => (await kv.get(legacyTimerKey(def.kind, "a", "far"))).value === null, "moved");
    assert.deepEqual((await kv.get(timerKey(def.kind, "a", "far"))).value, { dueAt, handler: "fire", arg: "far" });
    assert.equal(count("far"), 0);
    // At the due time its alarm rings: once, however often the older message comes again.
    offset = dueAt - Date.now();
    system.alarms.arm({ kind: def.kind, id: "a", timerId: "far", dueAt, handler: "fire", arg: "far" });
    await waitFor(() => count("far") === 1, "far timer");
    await system.ref(def, "a").ask("arm", { timerId: "sentinel", inMs: 300 });
    await kv.enqueue(message(def.kind, "a", "far", dueAt));
    await waitFor(() => count("sentinel") === 1, "sentinel");
    await system.ref(def, "a").ask("arm", { timerId: "sentinel2", inMs: 300 });
    await waitFor(() => count("sentinel2") === 1, "second sentinel");
    assert.equal(count("far"), 1);
  } finally {
    await system.close();
    kv.close();
    await system.listening.catch(() => {});
  }
});

Deno.test("ActorSystem holds a timer of a kind not yet registered until register() (restart race)", async () => {
  await withSystem(async ({ system, kv }) => {
    const { def, count } = timerKind("test_timer_late");
    const dueAt = Date.now();
    const armed: ArmedTimer = { dueAt, handler: "fire", arg: "t" };
    await kv.set(timerKey(def.kind, "a", "t"), armed);
    system.alarms.arm({ kind: def.kind, id: "a", timerId: "t", ...armed });
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(count("t"), 0);
    system.register(def);
    await waitFor(() => count("t") === 1, "timer after register");
  });
});

Deno.test("ActorSystem arms a timer again when its actor fails to activate, and it fires on retry", async () => {
  await withSystem(async ({ system, kv }) => {
    const { def, count } = timerKind("test_timer_flaky", 1);
    system.register(def);
    const armed: ArmedTimer = { dueAt: Date.now(), handler: "fire", arg: "t" };
    await kv.set(timerKey(def.kind, "a", "t"), armed);
    system.alarms.arm({ kind: def.kind, id: "a", timerId: "t", ...armed });
    await waitFor(() => count("t") === 1, "timer after retry");
  });
});

Deno.test("A store without queues (KV Connect) runs the timers on alarms alone and closes cleanly", async () => {
  const kv = await Deno.openKv(":memory:");
  // KV Connect refuses queues: its listener fails at once.
  const remote = new Proxy(kv, {
    get(target, prop) {
      if (prop === "listenQueue") return () => Promise.reject(new TypeError("Queues are not supported by KV Connect"));
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const system = new ActorSystem(remote);
  const { def, count } = timerKind();
  try {
    await system.ref(def, "a").ask("arm", { timerId: "t", inMs: 100 });
    await waitFor(() => count("t") === 1, "timer t on the alarm");
    let ended = false;
    system.listening.then(() => ended = true);
    await Promise.resolve();
    assert.equal(ended, false, "the system runs until it is closed");
  } finally {
    await system.close();
    kv.close();
  }
  await system.listening; // resolves, does not reject
});
