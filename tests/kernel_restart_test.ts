import assert from "node:assert/strict";
import { timerKey } from "../actors/_runtime/timers.ts";
import { ActorSystem, defineActor } from "../actors/_runtime/mod.ts";
import { withTempDir } from "./helpers/temp.ts";

/** A timer actor whose firing resolves `fired`; shared by both "processes" of the test. */
function timerKind() {
  const fired = Promise.withResolvers<{ arg: string; at: number; system: ActorSystem }>();
  const def = defineActor({
    kind: "restart_timer",
    load: () => Promise.resolve({}),
    handlers: {
      arm(ctx, inMs: number) {
        const dueAt = ctx.now + inMs;
        ctx.setTimer("t", dueAt, "fire", "armed before restart");
        return dueAt;
      },
      fire(ctx, arg: string) {
        ctx.set(["fired", ctx.id], arg);
        fired.resolve({ arg, at: Date.now(), system: ctx.system });
      },
      /** Keeps the actor busy (and so `close()` waiting) until `gate` settles. */
      async hold(_ctx, gate: Promise<void>) {
        await gate;
      },
    },
  });
  return { def, fired: fired.promise };
}

/** Opens a KV and a system on `path`; `stop` closes both like server shutdown does. */
async function open(path: string) {
  const kv = await Deno.openKv(path);
  const system = new ActorSystem(kv);
  const stop = async () => {
    await system.close();
    kv.close();
    await system.listening.catch(() => {});
  };
  return { kv, system, stop };
}

/** Asserts, on a fresh KV handle of `path`, that the timer fired (its record) and is gone. */
async function assertFiredAndCleared(path: string): Promise<void> {
  const check = await Deno.openKv(path);
  try {
    assert.equal((await check.get(["fired", "x"])).value, "armed before restart");
    assert.equal((await check.get(timerKey("restart_timer", "x", "t"))).value, null);
  } finally {
    check.close();
  }
}

/** Resolves with the firing, or rejects after `ms`. */
async function firedWithin<T>(fired: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timer did not fire within ${ms} ms`)), ms);
  });
  return await Promise.race([fired, timeout]).finally(() => clearTimeout(timer));
}

Deno.test("ActorSystem fires a timer armed before a restart after the restart", async () => {
  await withTempDir("kernel_restart_", async (dir) => {
    const path = `${dir}/kernel.kv`;
    const { def, fired } = timerKind();
    const before = await open(path);
    const dueAt = await before.system.ref(def, "x").ask("arm", 1000);
    await before.stop();

    const after = await open(path);
    try {
      // Register late, past the due time: a restarted process may get the delivery first.
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, dueAt - Date.now()) + 300));
      after.system.register(def);
      const result = await firedWithin(fired, 30_000);
      assert.equal(result.arg, "armed before restart");
      assert.equal(result.system, after.system, "fired before the restart");
      assert.ok(result.at >= dueAt - 50, `fired ${dueAt - result.at} ms early`);
      assert.equal(await after.system.ref(def, "x").peek<object>().then(() => "live"), "live");
    } finally {
      await after.stop();
    }
    await assertFiredAndCleared(path);
  });
});

Deno.test("ActorSystem.close() leaves a timer that comes due while it drains to the next start, which fires it once", async () => {
  await withTempDir("kernel_restart_", async (dir) => {
    const path = `${dir}/kernel.kv`;
    const { def, fired } = timerKind();
    const before = await open(path);
    const dueAt = await before.system.ref(def, "x").ask("arm", 300);
    const gate = Promise.withResolvers<void>();
    const busy = before.system.ref(def, "y").ask("hold", gate.promise);
    const stopping = before.stop();
    // The timer comes due while close() waits for the busy actor: a closing system (whose
    // companies another process may be taking over) wakes nothing more.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, dueAt - Date.now()) + 500));
    gate.resolve();
    await busy;
    await stopping;

    const after = await open(path);
    try {
      after.system.register(def);
      const result = await firedWithin(fired, 30_000);
      assert.equal(result.system, after.system, "fired by the closing system");
      assert.ok(result.at >= dueAt - 50);
    } finally {
      await after.stop();
    }
    await assertFiredAndCleared(path);
  });
});
