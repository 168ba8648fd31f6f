/**
 * ActorSystem.created (ActorRef.created): an actor whose id was allocated just now starts with
 * its kind's empty state, without the load and the timers' list an activation reads.
 */
import assert from "node:assert/strict";
import { defineActor } from "./actor.ts";
import { ActorSystem } from "./system.ts";
import { withSystem } from "./testing.ts";

/** A counter actor whose loads are counted; `withEmpty` gives it an empty state. */
function counter(withEmpty: boolean) {
  const loads = { n: 0 };
  const def = defineActor({
    kind: withEmpty ? "created_counter" : "created_counter_plain",
    async load(kv, id): Promise<{ id: string; n: number }> {
      loads.n++;
      return { id, n: (await kv.get<number>(["created_counter", id])).value ?? 0 };
    },
    ...(withEmpty ? { empty: (id: string) => ({ id, n: 0 }) } : {}),
    handlers: {
      inc(ctx): number {
        ctx.state.n++;
        ctx.set(["created_counter", ctx.state.id], ctx.state.n);
        return ctx.state.n;
      },
    },
  });
  return { def, loads };
}

Deno.test("An actor told it was created starts empty without loading, and its writes are stored", async () => {
  await withSystem(async ({ system, kv }) => {
    const { def, loads } = counter(true);
    const ref = system.ref(def, "1:7");
    ref.created();
    assert.equal(await ref.ask("inc", undefined), 1);
    assert.equal(await ref.ask("inc", undefined), 2);
    assert.equal(loads.n, 0, "no load for a created actor");
    assert.equal((await kv.get(["created_counter", "1:7"])).value, 2);
  });
});

Deno.test("created() leaves a live actor as it is, and a kind without an empty state loads as usual", async () => {
  await withSystem(async ({ system }) => {
    const { def, loads } = counter(true);
    const ref = system.ref(def, "1:8");
    await ref.ask("inc", undefined);
    ref.created(); // live already: its state stays
    assert.equal(await ref.ask("inc", undefined), 2);
    assert.equal(loads.n, 1);

    const plain = counter(false);
    const other = system.ref(plain.def, "1:9");
    other.created();
    assert.equal(await other.ask("inc", undefined), 1);
    assert.equal(plain.loads.n, 1, "loaded: its kind has no empty state");
  });
});

Deno.test("created() does nothing for a company a process of several does not hold", async () => {
  const kv = await Deno.openKv(":memory:");
  const system = new ActorSystem(kv, { cluster: true });
  try {
    const { def, loads } = counter(true);
    system.created(def, "5:1");
    await assert.rejects(system.ref(def, "5:1").ask("inc", undefined));
    assert.equal(loads.n, 0);
  } finally {
    await system.close();
    kv.close();
  }
});
