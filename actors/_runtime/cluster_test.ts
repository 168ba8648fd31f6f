/**
 * The kernel's side of several processes over one store (issue #35): a company's writes are
 * fenced by its lease term, a lost lease fails only that company's writes of a batch, and the
 * platform's actors (company 0) run in every process with versioned writes. Two systems over
 * one store file stand for two processes.
 */
import assert from "node:assert/strict";
import { defineActor } from "./actor.ts";
import type { Fence, FenceCheck } from "./committer.ts";
import { ActorSystem } from "./system.ts";
import { waitFor } from "./testing.ts";

/** A counter actor: `add` adds to it, `value` reads it; the count lives at `["count", id]`. */
const counter = defineActor({
  kind: "test_counter",
  async load(kv, id): Promise<{ n: number }> {
    return { n: (await kv.get<number>(["count", id])).value ?? 0 };
  },
  handlers: {
    add(ctx, by: number): number {
      ctx.state.n += by;
      ctx.set(["count", ctx.id], ctx.state.n);
      return ctx.state.n;
    },
    value(ctx): number {
      return ctx.state.n;
    },
  },
});

/** Two systems in cluster mode over one store file; closes both. */
async function withTwo(fn: (a: ActorSystem, b: ActorSystem, kv: Deno.Kv) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir();
  const [kvA, kvB] = [await Deno.openKv(`${dir}/s.kv`), await Deno.openKv(`${dir}/s.kv`)];
  const a = new ActorSystem(kvA, { cluster: true });
  const b = new ActorSystem(kvB, { cluster: true });
  try {
    await fn(a, b, kvA);
  } finally {
    for (const [system, kv] of [[a, kvA], [b, kvB]] as const) {
      await system.close();
      kv.close();
      await system.listening.catch(() => {});
    }
    await Deno.remove(dir, { recursive: true });
  }
}

/** A fence holding `companies` at their lease terms as stored now. */
async function fenceOf(kv: Deno.Kv, companies: number[]): Promise<Fence & { lostOnes: number[] }> {
  const held = new Map<number, FenceCheck>();
  for (const id of companies) {
    const key = ["lease_term", id];
    let entry = await kv.get(key);
    if (entry.versionstamp === null) {
      await kv.set(key, 1);
      entry = await kv.get(key);
    }
    held.set(id, { key, versionstamp: entry.versionstamp! });
  }
  const lostOnes: number[] = [];
  return {
    lostOnes,
    of: (id) => held.get(id),
    lost: (id) => {
      held.delete(id);
      lostOnes.push(id);
    },
  };
}

Deno.test("a platform actor written by two processes at once loses no write", async () => {
  await withTwo(async (a, b) => {
    const adds = [
      ...Array.from({ length: 40 }, () => a.ref(counter, "0").ask("add", 1)),
      ...Array.from({ length: 40 }, () => b.ref(counter, "0").ask("add", 1)),
    ];
    await Promise.all(adds);
    await a.refresh(counter, "0");
    await b.refresh(counter, "0");
    assert.equal(await a.ref(counter, "0").ask("value", undefined), 80);
    assert.equal(await b.ref(counter, "0").ask("value", undefined), 80);
  });
});

Deno.test("a process sees another's write of a platform actor within the refresh interval", async () => {
  await withTwo(async (a, b) => {
    assert.equal(await b.ref(counter, "0").ask("value", undefined), 0);
    await a.ref(counter, "0").ask("add", 5);
    await waitFor(async () => (await b.ref(counter, "0").peek<{ n: number }>()).n === 5, "the refresh", 5000);
  });
});

Deno.test("a commit of a company whose lease moved is refused; the other company's writes in its batch land", async () => {
  await withTwo(async (a, _b, kv) => {
    const fence = await fenceOf(kv, [5, 6]);
    a.committer.fence = fence;
    assert.equal(await a.ref(counter, "5:1").ask("add", 1), 1);
    // Another process takes company 5: a new term.
    await kv.set(["lease_term", 5], 2);
    const results = await Promise.allSettled([
      a.ref(counter, "5:1").ask("add", 1),
      a.ref(counter, "6:1").ask("add", 1),
      a.ref(counter, "5:2").ask("add", 1),
      a.ref(counter, "6:2").ask("add", 1),
    ]);
    assert.deepEqual(results.map((r) => r.status), ["rejected", "fulfilled", "rejected", "fulfilled"]);
    assert.match(String((results[0] as PromiseRejectedResult).reason), /being moved/);
    assert.deepEqual(fence.lostOnes, [5]);
    assert.equal((await kv.get(["count", "5:1"])).value, 1, "nothing written after the move");
    assert.equal((await kv.get(["count", "5:2"])).value, null);
    assert.equal((await kv.get(["count", "6:1"])).value, 1);
    assert.equal((await kv.get(["count", "6:2"])).value, 1);
    // Not held any more: refused at once, without another round trip.
    await assert.rejects(a.ref(counter, "5:3").ask("add", 1), /being moved/);
  });
});
