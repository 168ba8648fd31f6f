import assert from "node:assert/strict";
import { ActorSystem, defineActor } from "../actors/_runtime/mod.ts";

/** A timer actor whose firing resolves `fired`; shared by both "processes" of the test. */
function timerKind() {
  const fired = Promise.withResolvers<{ arg: string; at: number }>();
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
        fired.resolve({ arg, at: Date.now() });
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

Deno.test("ActorSystem fires a timer armed before a restart after the restart", async () => {
  const dir = await Deno.makeTempDir({ prefix: "kernel_restart_" });
  const path = `${dir}/kernel.kv`;
  try {
    const { def, fired } = timerKind();
    const before = await open(path);
    const dueAt = await before.system.ref(def, "x").ask("arm", 1000);
    await before.stop();

    const after = await open(path);
    try {
      // Register late, past the due time: a restarted process may get the delivery first.
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, dueAt - Date.now()) + 300));
      after.system.register(def);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("timer did not fire after restart")), 30_000);
      });
      const result = await Promise.race([fired, timeout]).finally(() => clearTimeout(timer));
      assert.equal(result.arg, "armed before restart");
      assert.ok(result.at >= dueAt - 50, `fired ${dueAt - result.at} ms early`);
      assert.equal(await after.system.ref(def, "x").peek<object>().then(() => "live"), "live");
    } finally {
      await after.stop();
    }
    const check = await Deno.openKv(path);
    try {
      assert.equal((await check.get(["fired", "x"])).value, "armed before restart");
      assert.equal((await check.get(["timer", "restart_timer", "x", "t"])).value, null);
    } finally {
      check.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
