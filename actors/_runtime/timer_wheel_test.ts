import assert from "node:assert/strict";
import { defineActor } from "./actor.ts";
import { waitFor, withSystem } from "./testing.ts";
import { loadWheel, type TimerWheel, WHEEL_TIMER, wheelKey } from "./timer_wheel.ts";
import { timerKey } from "./timers.ts";

/** An actor with a wheel: `arm`/`cancel` entries, `tick` runs due ones (at most `max` a run). */
function wheelKind(kind: string, max = 1000) {
  const fired: { id: string; arg: unknown; at: number; dueAt: number }[] = [];
  const def = defineActor({
    kind,
    load: (kv, id) => loadWheel(kv, kind, id, "tick").then((wheel) => ({ wheel })),
    handlers: {
      arm(ctx, a: { id: string; inMs: number }) {
        ctx.state.wheel.set(ctx, a.id, { dueAt: ctx.now + a.inMs, action: "fire", arg: a.id });
      },
      cancel(ctx, id: string) {
        ctx.state.wheel.cancel(ctx, id);
      },
      tick(ctx) {
        const wheel: TimerWheel = ctx.state.wheel;
        for (const entry of wheel.takeDue(ctx, ctx.now, max)) {
          fired.push({ id: entry.timerId, arg: entry.arg, at: Date.now(), dueAt: entry.dueAt });
        }
        wheel.rearm(ctx);
      },
    },
  });
  return { def, fired };
}

Deno.test("TimerWheel fires many entries on one runtime timer, in due order, each once", async () => {
  await withSystem(async ({ system, kv }) => {
    const { def, fired } = wheelKind("wheel_a", 7);
    const ref = system.ref(def, "1");
    const ids = Array.from({ length: 40 }, (_, i) => `t${i}`);
    // Armed in reverse due order: the runtime timer moves earlier each time.
    for (const [i, id] of ids.entries()) await ref.ask("arm", { id, inMs: 1200 - i * 20 });
    await ref.ask("cancel", "t3");
    await ref.ask("arm", { id: "t5", inMs: 1500 }); // re-armed later
    await waitFor(() => fired.length === 39, "39 entries");
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(fired.length, 39, "no duplicate, the cancelled one never");
    assert.ok(!fired.some((f) => f.id === "t3"));
    assert.deepEqual(fired.map((f) => f.dueAt), [...fired.map((f) => f.dueAt)].sort((a, b) => a - b));
    assert.equal(fired.at(-1)!.id, "t5");
    for (const f of fired) assert.ok(f.at >= f.dueAt - 50, `${f.id} fired ${f.dueAt - f.at} ms early`);
    assert.equal(fired.find((f) => f.id === "t0")!.arg, "t0");
    // Everything spent: no entry, no runtime timer left.
    assert.equal((await Array.fromAsync(kv.list({ prefix: ["timer_wheel", "wheel_a"] }))).length, 0);
    await waitFor(async () => (await kv.get(timerKey("wheel_a", "1", WHEEL_TIMER))).value === null, "runtime timer spent");
  });
});

Deno.test("TimerWheel entries survive a reload: the actor reads them back on activation", async () => {
  await withSystem(async ({ system, kv }) => {
    const { def, fired } = wheelKind("wheel_b");
    const ref = system.ref(def, "1");
    await ref.ask("arm", { id: "x", inMs: 800 });
    await ref.ask("arm", { id: "y", inMs: 900 });
    assert.ok((await kv.get(wheelKey("wheel_b", "1", "x"))).value);
    system.passivateAll();
    assert.equal(system.liveActors, 0);
    await waitFor(() => fired.length === 2, "both entries after reactivation");
    assert.deepEqual(fired.map((f) => f.id), ["x", "y"]);
  });
});
