import assert from "node:assert/strict";
import { defineActor } from "./actor.ts";
import { waitFor, withSystem } from "./testing.ts";
import { MAX_DELAY_MS, timerKey, type TimerMessage } from "./timers.ts";

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
    assert.ok((await kv.get(timerKey(def.kind, "a", "t"))).value === dueAt);
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

Deno.test("ActorSystem ignores a duplicate delivery of a fired timer and a timer that is not armed", async () => {
  await withSystem(async ({ system, kv }) => {
    const { def, count } = timerKind();
    const ref = system.ref(def, "a");
    const dueAt = await ref.ask("arm", { timerId: "t", inMs: 100 });
    await waitFor(() => count("t") === 1, "timer t");
    const duplicate = message(def.kind, "a", "t", dueAt);
    await kv.enqueue(duplicate);
    await kv.enqueue(duplicate);
    await kv.enqueue(message(def.kind, "a", "never-armed", Date.now()));
    await kv.enqueue(message(def.kind, "a", "sentinel", dueAt)); // armed with another due time
    await ref.ask("arm", { timerId: "sentinel", inMs: 500 });
    await waitFor(() => count("sentinel") === 1, "sentinel");
    assert.equal(count("t"), 1);
    assert.equal(count("never-armed"), 0);
  });
});

Deno.test("ActorSystem re-arms a timer due beyond KV's delay cap instead of firing it early", async () => {
  let now = Date.now();
  await withSystem(async ({ system, kv, probe }) => {
    const { def, count } = timerKind();
    const ref = system.ref(def, "a");
    const dueAt = await ref.ask("arm", { timerId: "far", inMs: 40 * DAY });
    // The capped delivery (29 days later in real life) arrives while the due time is far off.
    now += MAX_DELAY_MS;
    const before = probe.atomics.length;
    await kv.enqueue(message(def.kind, "a", "far", dueAt));
    await waitFor(() => probe.atomics.length > before, "re-arm commit");
    assert.deepEqual(probe.atomics.slice(before), [1], "re-arm is one queue write");
    assert.equal(count("far"), 0);
    assert.equal(await ref.ask("due", "far"), dueAt);
    // The re-armed delivery arrives at the due time: it fires once; a duplicate does not.
    now = dueAt;
    await kv.enqueue(message(def.kind, "a", "far", dueAt));
    await waitFor(() => count("far") === 1, "far timer");
    await kv.enqueue(message(def.kind, "a", "far", dueAt));
    await ref.ask("arm", { timerId: "sentinel", inMs: 300 });
    await waitFor(() => count("sentinel") === 1, "sentinel");
    assert.equal(count("far"), 1);
  }, { now: () => now });
});

Deno.test("ActorSystem holds a timer of a kind not yet registered until register() (restart race)", async () => {
  await withSystem(async ({ system, kv }) => {
    const { def, count } = timerKind("test_timer_late");
    const dueAt = Date.now();
    await kv.set(timerKey(def.kind, "a", "t"), dueAt);
    await kv.enqueue(message(def.kind, "a", "t", dueAt));
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(count("t"), 0);
    system.register(def);
    await waitFor(() => count("t") === 1, "timer after register");
  });
});

Deno.test("ActorSystem hands a timer back to KV when its actor fails to activate, and it fires on retry", async () => {
  await withSystem(async ({ system, kv }) => {
    const { def, count } = timerKind("test_timer_flaky", 1);
    system.register(def);
    const dueAt = Date.now();
    await kv.set(timerKey(def.kind, "a", "t"), dueAt);
    await kv.enqueue(message(def.kind, "a", "t", dueAt));
    await waitFor(() => count("t") === 1, "timer after retry");
  });
});
