import assert from "node:assert/strict";
import type { BusEvent } from "../../domain/events.ts";
import { type ActorContext, defineActor } from "./actor.ts";
import { settle, waitFor, withSystem } from "./testing.ts";

interface Counter {
  n: number;
}

/** A counter actor persisted at ["counter", id]; `loads` counts activations. */
function counterKind(idleMs?: number) {
  const stats = { loads: 0 };
  const def = defineActor({
    kind: "test_counter",
    idleMs,
    async load(kv, id): Promise<Counter> {
      stats.loads++;
      const entry = await kv.get<number>(["counter", id]);
      return { n: entry.value ?? 0 };
    },
    handlers: {
      inc(ctx) {
        ctx.state.n++;
        ctx.set(["counter", ctx.id], ctx.state.n);
        ctx.emit({ companyId: 1, channel: "counter", data: { n: ctx.state.n } } as BusEvent);
        return ctx.state.n;
      },
      get(ctx) {
        return ctx.state.n;
      },
      /** Breaks the rule: changes state and records a write, then throws. */
      breakAfterWrite(ctx) {
        ctx.state.n = 999;
        ctx.set(["counter", ctx.id], 999);
        throw new Error("failed after writing");
      },
      /** Follows the rule: validates first and throws before changing anything. */
      refuse(_ctx, why: string) {
        throw new Error(why);
      },
      writeHuge(ctx) {
        ctx.state.n = -1;
        ctx.set(["counter", ctx.id], -1);
        ctx.set(["huge", ctx.id], "x".repeat(70_000));
        return "written";
      },
      /** A write KV refuses only at commit time (a key over 2 KiB). */
      badKey(ctx) {
        ctx.state.n++;
        ctx.set(["counter", "k".repeat(3000)], ctx.state.n);
        return ctx.state.n;
      },
      async slow(ctx, gate: Promise<void>) {
        await gate;
        ctx.state.n++;
        ctx.set(["counter", ctx.id], ctx.state.n);
        return ctx.state.n;
      },
    },
  });
  return { def, stats };
}

Deno.test("ActorSystem.ask() keeps a counter exact under 1,000 concurrent asks, replies in order", async () => {
  await withSystem(async ({ system, kv }) => {
    const { def } = counterKind();
    const ref = system.ref(def, "a");
    const order: number[] = [];
    const asks = Array.from(
      { length: 1000 },
      () => ref.ask("inc", undefined).then((n) => order.push(n)),
    );
    await Promise.all(asks);
    assert.deepEqual(order, Array.from({ length: 1000 }, (_, i) => i + 1));
    assert.equal((await kv.get(["counter", "a"])).value, 1000);
    assert.ok(system.committer.stats.commits < 200, `commits: ${system.committer.stats.commits}`);
  });
});

Deno.test("ActorSystem activation reloads state from KV after passivateAll()", async () => {
  await withSystem(async ({ system }) => {
    const { def, stats } = counterKind();
    const ref = system.ref(def, "a");
    for (let i = 0; i < 3; i++) await ref.ask("inc", undefined);
    assert.equal(system.liveActors, 1);
    system.passivateAll();
    assert.equal(system.liveActors, 0);
    assert.equal(await ref.ask("get", undefined), 3);
    assert.equal(stats.loads, 2);
  });
});

Deno.test("ActorSystem.evictWhere() drops only the matching actors, which reload from KV", async () => {
  await withSystem(async ({ system }) => {
    const { def, stats } = counterKind();
    for (const id of ["5", "5:1", "50"]) await system.ref(def, id).ask("inc", undefined);
    assert.deepEqual(system.kinds.includes("test_counter"), true);
    const dropped = system.evictWhere((_kind, id) => id === "5" || id.startsWith("5:"));
    assert.equal(dropped, 2);
    assert.equal(system.liveActors, 1);
    await system.kv.delete(["counter", "5"]);
    assert.equal(await system.ref(def, "5").ask("get", undefined), 0);
    assert.equal(stats.loads, 4);
  });
});

Deno.test("ActorRef.askLinked() holds an actor's writes until a second actor's join them in one atomic", async () => {
  await withSystem(async ({ system, kv, probe }) => {
    const { def } = counterKind();
    const a = system.ref(def, "a");
    const linked = a.askLinked("inc", undefined);
    let durable = false;
    linked.durable.then(() => (durable = true));
    const { reply, link } = await linked.queued;
    assert.equal(reply, 1);
    // Held: not durable, and the actor's next message waits, so its write cannot land first.
    const next = a.ask("inc", undefined);
    await settle();
    assert.equal(durable, false);
    assert.equal((await kv.get(["counter", "a"])).value, null);
    const before = probe.atomics.length;
    assert.equal(await system.ref(def, "b").askJoined("inc", undefined, link), 1);
    assert.equal(await linked.durable, 1);
    assert.equal(await next, 2);
    // The pair in one atomic (the next write of "a", waiting behind it, may join it there).
    const after = probe.atomics.slice(before);
    assert.ok(after[0] >= 2 && after.reduce((a, b) => a + b) === 3, `atomics ${after}`);
    assert.equal((await kv.get(["counter", "a"])).value, 2);

    // A joining handler that fails leaves the held writes to commit alone.
    const again = a.askLinked("inc", undefined);
    const held = await again.queued;
    await assert.rejects(system.ref(def, "b").askJoined("refuse", "no", held.link), /no/);
    assert.equal(await again.durable, 3);
    assert.equal((await kv.get(["counter", "a"])).value, 3);
    assert.equal((await kv.get(["counter", "b"])).value, 1);
  });
});

Deno.test("ActorSystem passivates an actor idle for longer than its idleMs", async () => {
  await withSystem(async ({ system }) => {
    const { def, stats } = counterKind(30);
    await system.ref(def, "a").ask("inc", undefined);
    assert.equal(system.liveActors, 1);
    await waitFor(() => system.liveActors === 0, "idle passivation");
    assert.equal(await system.ref(def, "a").ask("get", undefined), 1);
    assert.equal(stats.loads, 2);
  }, { sweepMs: 10 });
});

Deno.test("ActorSystem output gate: a reply is released only after its write is readable in KV", async () => {
  await withSystem(async ({ system, kv, probe }) => {
    const { def } = counterKind();
    const ref = system.ref(def, "a");
    probe.hold();
    let replied = false;
    const reply = ref.ask("inc", undefined).then((n) => (replied = true, n));
    await settle();
    assert.equal(replied, false, "reply released before commit");
    assert.equal((await kv.get(["counter", "a"])).value, null);
    probe.release();
    assert.equal(await reply, 1);
    const checks = Array.from({ length: 50 }, () =>
      ref.ask("inc", undefined).then(async (n) => {
        const stored = (await kv.get<number>(["counter", "a"])).value!;
        assert.ok(stored >= n, `reply ${n} came before its write (KV has ${stored})`);
      }));
    await Promise.all(checks);
  });
});

Deno.test("ActorSystem output gate: events are published after commit and in order", async () => {
  await withSystem(async ({ system, kv, probe }) => {
    const { def } = counterKind();
    const ref = system.ref(def, "a");
    const seen: number[] = [];
    const reads: Promise<void>[] = [];
    system.bus.subscribe((event) => {
      const n = (event.data as { n: number }).n;
      seen.push(n);
      reads.push(
        kv.get<number>(["counter", "a"]).then((entry) => {
          assert.ok(entry.value! >= n, `event ${n} published before its write`);
        }),
      );
    });
    probe.hold();
    const asks = Array.from({ length: 200 }, () => ref.ask("inc", undefined));
    await settle();
    assert.deepEqual(seen, [], "events published before commit");
    probe.release();
    await Promise.all(asks);
    await Promise.all(reads);
    assert.deepEqual(seen, Array.from({ length: 200 }, (_, i) => i + 1));
  });
});

Deno.test("ActorSystem output gate: a handler's error waits for earlier messages' writes", async () => {
  await withSystem(async ({ system, probe }) => {
    const { def } = counterKind();
    const ref = system.ref(def, "a");
    probe.hold();
    const settled: string[] = [];
    const inc = ref.ask("inc", undefined).then(() => settled.push("inc"));
    const refused = ref.ask("refuse", "no").catch(() => settled.push("refuse"));
    await settle();
    assert.deepEqual(settled, []);
    probe.release();
    await Promise.all([inc, refused]);
    assert.deepEqual(settled, ["inc", "refuse"]);
  });
});

Deno.test("ActorSystem evicts an actor whose handler throws after writing; next message sees committed state", async () => {
  await withSystem(async ({ system, kv }) => {
    const { def, stats } = counterKind();
    const ref = system.ref(def, "a");
    await ref.ask("inc", undefined);
    await assert.rejects(ref.ask("breakAfterWrite", undefined), /failed after writing/);
    assert.equal(await ref.ask("get", undefined), 1);
    assert.equal((await kv.get(["counter", "a"])).value, 1);
    assert.equal(stats.loads, 2);
  });
});

Deno.test("ActorSystem keeps an actor whose handler throws before writing", async () => {
  await withSystem(async ({ system }) => {
    const { def, stats } = counterKind();
    const ref = system.ref(def, "a");
    await ref.ask("inc", undefined);
    await assert.rejects(ref.ask("refuse", "invalid"), /invalid/);
    assert.equal(await ref.ask("inc", undefined), 2);
    assert.equal(stats.loads, 1);
  });
});

Deno.test("ActorSystem reactivation after eviction waits for the old activation's writes", async () => {
  await withSystem(async ({ system, kv, probe }) => {
    const { def, stats } = counterKind();
    const ref = system.ref(def, "a");
    probe.hold();
    const order: string[] = [];
    const inc = ref.ask("inc", undefined).then((n) => order.push(`inc ${n}`));
    const broken = ref.ask("breakAfterWrite", undefined).catch(() => order.push("broken"));
    const get = ref.ask("get", undefined).then((n) => order.push(`get ${n}`));
    const inc2 = ref.ask("inc", undefined).then((n) => order.push(`inc ${n}`));
    await settle();
    // The fresh activation must not load while "inc 1" is still uncommitted.
    assert.equal(stats.loads, 1);
    probe.release();
    await Promise.all([inc, broken, get, inc2]);
    assert.deepEqual(order, ["inc 1", "broken", "get 1", "inc 2"]);
    assert.equal((await kv.get(["counter", "a"])).value, 2);
    assert.equal(stats.loads, 2);
  });
});

Deno.test("ActorSystem rejects a unit with a value over 64 KiB and resets the actor before its next message", async () => {
  await withSystem(async ({ system, kv }) => {
    const { def } = counterKind();
    const ref = system.ref(def, "a");
    await ref.ask("inc", undefined);
    const huge = ref.ask("writeHuge", undefined);
    const next = ref.ask("inc", undefined);
    await assert.rejects(huge, /over KV's 64 KiB/);
    assert.equal(await next, 2, "the next message ran on the refused unit's state");
    assert.equal((await kv.get(["counter", "a"])).value, 2);
    assert.equal((await kv.get(["huge", "a"])).value, null);
  });
});

Deno.test("ActorSystem.close() lets accepted messages finish, then refuses new asks", async () => {
  await withSystem(async ({ system, kv }) => {
    const { def } = counterKind();
    const ref = system.ref(def, "a");
    const gate = Promise.withResolvers<void>();
    const slow = ref.ask("slow", gate.promise);
    await settle();
    let closed = false;
    const closing = system.close().then(() => (closed = true));
    await settle();
    assert.equal(closed, false, "close() returned while a message was running");
    gate.resolve();
    assert.equal(await slow, 1);
    await closing;
    assert.equal((await kv.get(["counter", "a"])).value, 1);
    await assert.rejects(ref.ask("inc", undefined), /closed/);
  });
});

Deno.test("ActorContext refuses writes recorded after its handler returned", async () => {
  await withSystem(async ({ system, kv }) => {
    let leaked: ActorContext<unknown> | undefined;
    const def = defineActor({
      kind: "test_leak",
      load: () => Promise.resolve({}),
      handlers: {
        leak(ctx) {
          leaked = ctx;
          return "done";
        },
      },
    });
    assert.equal(await system.ref(def, "a").ask("leak", undefined), "done");
    assert.throws(() => leaked!.set(["late"], 1), /after its handler returned/);
    assert.throws(() => leaked!.setTimer("t", Date.now(), "leak"), /after its handler returned/);
    assert.equal((await kv.get(["late"])).value, null);
  });
});

Deno.test("ActorSystem discards a handler that ran while an earlier commit of its actor failed", async () => {
  await withSystem(async ({ system, kv }) => {
    const { def, stats } = counterKind();
    const ref = system.ref(def, "a");
    await ref.ask("inc", undefined);
    const gate = Promise.withResolvers<void>();
    const bad = ref.ask("badKey", undefined);
    const slow = ref.ask("slow", gate.promise);
    const get = ref.ask("get", undefined);
    await assert.rejects(bad);
    gate.resolve();
    await assert.rejects(slow, /was reset/);
    assert.equal(await get, 1);
    assert.equal((await kv.get(["counter", "a"])).value, 1);
    assert.equal(stats.loads, 2);
  });
});

Deno.test("ctx.onDurable() runs once the write is readable, before the reply; never for a refused write", async () => {
  await withSystem(async ({ system, kv, probe }) => {
    const log: string[] = [];
    const def = defineActor({
      kind: "test_durable",
      load: () => Promise.resolve({}),
      handlers: {
        write(ctx, key: string) {
          ctx.set(["durable", key], key);
          ctx.onDurable(() => {
            log.push(key);
            reads.push(kv.get(["durable", key]).then((e) => assert.equal(e.value, key, `${key} not yet readable`)));
          });
          return key;
        },
      },
    });
    const reads: Promise<void>[] = [];
    const ref = system.ref(def, "a");
    probe.hold();
    const first = ref.ask("write", "one").then((k) => (assert.deepEqual(log, ["one"]), k));
    await settle();
    assert.deepEqual(log, [], "ran before the commit");
    probe.release();
    assert.equal(await first, "one");
    await assert.rejects(ref.ask("write", "k".repeat(3000)));
    assert.deepEqual(log, ["one"], "ran for a refused write");
    await Promise.all(reads);
  });
});
