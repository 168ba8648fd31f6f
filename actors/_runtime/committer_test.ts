import assert from "node:assert/strict";
import { GroupCommitter, KV_LIMITS, type Mutation } from "./committer.ts";
import { AppError } from "../../domain/errors.ts";
import { probeKv, refusingKv } from "./testing.ts";
import { appendedEntries } from "./appended_log.ts";

/** Runs `fn` with a committer over a probed in-memory KV. */
async function withCommitter(
  fn: (c: GroupCommitter, kv: Deno.Kv, atomics: number[]) => Promise<void>,
): Promise<void> {
  const kv = await Deno.openKv(":memory:");
  const probe = probeKv(kv);
  try {
    await fn(new GroupCommitter(probe.kv), kv, probe.atomics);
  } finally {
    kv.close();
  }
}

const set = (key: Deno.KvKey, value: unknown = 1): Mutation => ({ type: "set", key, value });

Deno.test("GroupCommitter.commit() writes many concurrent units in few atomics", async () => {
  await withCommitter(async (committer, kv) => {
    await Promise.all(Array.from({ length: 500 }, (_, i) => committer.commit([set(["k", i], i)])));
    const { commits, units } = committer.stats;
    assert.equal(units, 500);
    assert.ok(commits <= 10, `500 units took ${commits} atomics`);
    const stored = await Array.fromAsync(kv.list({ prefix: ["k"] }));
    assert.equal(stored.length, 500);
  });
});

Deno.test("GroupCommitter.commit() rejects a unit with a value over 64 KiB alone; its batch commits", async () => {
  await withCommitter(async (committer, kv) => {
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) =>
      committer.commit([
        set(["k", i], i),
        set(["big", i], i === 7 ? "x".repeat(KV_LIMITS.bytesPerValue + 10) : "small"),
      ])));
    assert.equal(results.filter((r) => r.status === "rejected").length, 1);
    assert.equal(results[7].status, "rejected");
    assert.match(String((results[7] as PromiseRejectedResult).reason), /over KV's 64 KiB/);
    assert.equal((await kv.get(["k", 7])).value, null, "the refused unit was split");
    for (const i of [0, 6, 8, 19]) assert.equal((await kv.get(["k", i])).value, i);
  });
});

Deno.test("GroupCommitter.commit() isolates a unit KV refuses (key over 2 KiB) by halving its batch", async () => {
  await withCommitter(async (committer, kv, atomics) => {
    const results = await Promise.allSettled(
      Array.from(
        { length: 16 },
        (_, i) =>
          committer.commit([set(["k", i], i), set(["key", i === 11 ? "k".repeat(3000) : "ok"], i)]),
      ),
    );
    assert.deepEqual(
      results.map((r) => r.status === "fulfilled"),
      Array.from({ length: 16 }, (_, i) => i !== 11),
    );
    assert.equal((await kv.get(["k", 11])).value, null);
    assert.equal((await kv.get(["k", 12])).value, 12);
    assert.ok(atomics.every((n) => n % 2 === 0), "a unit was split across atomics");
  });
});

Deno.test("GroupCommitter splits batches at KV's mutation limit and never splits a unit", async () => {
  await withCommitter(async (committer, kv, atomics) => {
    const unit = (u: number) => Array.from({ length: 300 }, (_, i) => set(["u", u, i], i));
    await Promise.all(Array.from({ length: 6 }, (_, u) => committer.commit(unit(u))));
    assert.ok(atomics.length >= 2, `atomics: ${atomics}`);
    for (const n of atomics) {
      assert.ok(n <= KV_LIMITS.mutationsPerAtomic, `atomic of ${n} mutations`);
      assert.equal(n % 300, 0, `atomic of ${n} mutations split a unit`);
    }
    assert.equal(atomics.reduce((a, b) => a + b, 0), 1800);
    assert.equal((await Array.fromAsync(kv.list({ prefix: ["u"] }))).length, 1800);
  });
});

Deno.test("GroupCommitter.prepare() names units that can never be committed", async () => {
  await withCommitter((committer) => {
    assert.equal(committer.prepare([set(["a"])]).error, undefined);
    const many = Array.from({ length: 1001 }, (_, i) => set(["m", i]));
    assert.match(String(committer.prepare(many).error), /1001 mutations/);
    const enqueues = Array.from(
      { length: 101 },
      (): Mutation => ({ type: "enqueue", value: 1, delay: 0 }),
    );
    assert.match(String(committer.prepare(enqueues).error), /101 enqueues/);
    assert.match(String(committer.prepare([set(["b"], new Uint8Array(70_000))]).error), /64 KiB/);
    return Promise.resolve();
  });
});

Deno.test("GroupCommitter with grouping: false commits every unit in its own atomic", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const committer = new GroupCommitter(kv, { grouping: false });
    await Promise.all(Array.from({ length: 20 }, (_, i) => committer.commit([set(["k", i])])));
    assert.equal(committer.stats.commits, 20);
  } finally {
    kv.close();
  }
});

Deno.test("GroupCommitter.prepare() sizes binary, bigint and plain values by their bytes", async () => {
  await withCommitter((committer) => {
    const nested = { name: "keys", bytes: new Uint8Array(40_000) };
    assert.equal(committer.prepare([set(["a"], nested)]).error, undefined, "40 KB nested binary");
    const big = { bytes: new Uint8Array(70_000) };
    assert.match(String(committer.prepare([set(["a"], big)]).error), /64 KiB/);
    const unit = committer.prepare([set(["a"], { n: 10n, s: "x".repeat(100) })]);
    assert.equal(unit.error, undefined);
    assert.ok(unit.bytes > 100 && unit.bytes < 200, `bytes: ${unit.bytes}`);
    return Promise.resolve();
  });
});

Deno.test("GroupCommitter.commit() refuses a unit whose value cannot be stored, and commits the units around it", async () => {
  await withCommitter(async (committer, kv, atomics) => {
    const results = await Promise.allSettled(Array.from({ length: 12 }, (_, i) =>
      committer.commit([set(["k", i], i), set(["v", i], i === 5 ? { f: () => 1 } : "ok")])));
    assert.deepEqual(results.map((r) => r.status === "fulfilled"), Array.from({ length: 12 }, (_, i) => i !== 5));
    assert.equal((await kv.get(["k", 5])).value, null, "the refused unit left a write behind");
    for (const i of [0, 4, 6, 11]) assert.equal((await kv.get(["k", i])).value, i);
    assert.ok(atomics.every((n) => n % 2 === 0), "a unit was split across atomics");
  });
});

Deno.test("GroupCommitter sends the units queued while one atomic is in flight together in the next, in order", async () => {
  const kv = await Deno.openKv(":memory:");
  const probe = probeKv(kv);
  try {
    const committer = new GroupCommitter(probe.kv);
    const order: string[] = [];
    probe.hold();
    const first = committer.commit([set(["a"], 1)]).then(() => order.push("a"));
    await new Promise((r) => setTimeout(r, 5));
    // Queued behind the held commit: they share the next atomic, in order.
    const rest = Array.from({ length: 50 }, (_, i) => committer.commit([set(["b", i], i)]).then(() => order.push(`b${i}`)));
    probe.release();
    await Promise.all([first, ...rest]);
    assert.deepEqual(probe.atomics, [1, 50]);
    assert.deepEqual(order, ["a", ...Array.from({ length: 50 }, (_, i) => `b${i}`)]);
  } finally {
    kv.close();
  }
});

Deno.test("GroupCommitter merges sums of one key in a batch into one KV sum", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const committer = new GroupCommitter(kv);
    const sum = (key: Deno.KvKey, value: bigint): Mutation => ({ type: "sum", key, value });
    await Promise.all([
      committer.commit([sum(["c", 1], 2n), sum(["c", "1"], 5n)]),
      committer.commit([sum(["c", 1], 3n)]),
      committer.commit([sum(["c", 1], (1n << 64n) - 1n)]), // −1, wrapping
    ]);
    assert.equal((await kv.get<Deno.KvU64>(["c", 1])).value?.value, 4n);
    assert.equal((await kv.get<Deno.KvU64>(["c", "1"])).value?.value, 5n);
  } finally {
    kv.close();
  }
});

Deno.test("GroupCommitter counts a key's sums once against a batch's mutation limit", async () => {
  await withCommitter(async (committer, kv, atomics) => {
    // Three sets and one sum of the same counter per unit, as a message and its dashboard
    // count: one atomic takes 333 units (999 sets and one sum), not 250 (each sum counted).
    const unit = (u: number): Mutation[] => [
      set(["a", u]),
      set(["b", u]),
      set(["c", u]),
      { type: "sum", key: ["count"], value: 1n },
    ];
    await Promise.all(Array.from({ length: 600 }, (_, u) => committer.commit(unit(u))));
    assert.equal(atomics[0], 999, `atomics' sets: ${atomics}`);
    assert.equal(atomics.reduce((a, b) => a + b, 0), 1800);
    assert.equal((await kv.get<Deno.KvU64>(["count"])).value?.value, 600n);
  });
});

Deno.test("GroupCommitter.commit() rejects each unit of a store that refuses writes with a 503 ERR_STORE_UNAVAILABLE, and commits again once it accepts", async () => {
  const inner = await Deno.openKv(":memory:");
  const store = refusingKv(inner);
  try {
    const committer = new GroupCommitter(store.kv);
    store.refuse();
    const results = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => committer.commit([set(["k", i], i)])));
    for (const r of results) {
      assert.equal(r.status, "rejected");
      const reason = (r as PromiseRejectedResult).reason;
      assert.ok(reason instanceof AppError, String(reason));
      assert.equal(reason.code, "ERR_STORE_UNAVAILABLE");
      assert.equal(reason.status, 503);
      assert.match(String(reason.cause), /database or disk is full/);
    }
    assert.equal((await Array.fromAsync(inner.list({ prefix: ["k"] }))).length, 0);
    store.accept();
    await committer.commit([set(["k", 1], 1)]);
    assert.equal((await inner.get(["k", 1])).value, 1);
    // A unit KV can never take is KV's own error still (a 500), not the store's.
    const tooLong = await committer.commit([set(["k", "k".repeat(3000)])]).catch((e) => e);
    assert.ok(!(tooLong instanceof AppError), String(tooLong));
  } finally {
    inner.close();
  }
});

const append = (log: Deno.KvKey, id: string, value: unknown): Mutation => ({ type: "append", log, logId: JSON.stringify(log), id, value });

/** Every entry of the log under `prefix`, in the order a reader gets them. */
async function logOf(kv: Deno.Kv, prefix: Deno.KvKey): Promise<[string, unknown][]> {
  const out: [string, unknown][] = [];
  for await (const entry of kv.list({ prefix })) out.push(...appendedEntries(entry, prefix.length));
  return out;
}

Deno.test("GroupCommitter appends a batch's entries of one log as one value, readable in write order", async () => {
  await withCommitter(async (committer, kv, atomics) => {
    // An entry written one per key before (no `~` in its last part) is read as it was.
    await kv.set(["log", 1, "0000000000001000-1"], "old");
    const first = Array.from({ length: 300 }, (_, i) =>
      committer.commit([set(["m", i], i), append(["log", 1], `a${i}`, i), append(["log", 2], `b${i}`, -i)]));
    await Promise.all(first);
    const mutationsFirst = atomics.reduce((sum, n) => sum + n, 0);
    // 300 sets and one value per log (the batch may have been cut in a few atomics).
    assert.ok(mutationsFirst <= 300 + 2 * committer.stats.commits, `${mutationsFirst} mutations`);
    // A later commit's value sorts after: an entry written again is read last.
    await committer.commit([append(["log", 1], "a5", "again")]);
    const one = await logOf(kv, ["log", 1]);
    assert.deepEqual(one[0], ["0000000000001000-1", "old"]);
    assert.deepEqual(one.slice(1, 301), Array.from({ length: 300 }, (_, i) => [`a${i}`, i]));
    assert.deepEqual(one.at(-1), ["a5", "again"]);
    assert.deepEqual(await logOf(kv, ["log", 2]), Array.from({ length: 300 }, (_, i) => [`b${i}`, -i]));
  });
});

Deno.test("GroupCommitter splits a batch's log entries into values under KV's value limit", async () => {
  await withCommitter(async (committer, kv) => {
    const text = "x".repeat(900);
    await Promise.all(Array.from({ length: 200 }, (_, i) => committer.commit([append(["big"], `e${String(i).padStart(3, "0")}`, text)])));
    const values = await Array.fromAsync(kv.list({ prefix: ["big"] }));
    assert.ok(values.length >= 4, `${values.length} values for ~180 KB of entries`);
    for (const v of values) assert.ok(JSON.stringify(v.value).length < KV_LIMITS.bytesPerValue);
    assert.deepEqual((await logOf(kv, ["big"])).map(([id]) => id), Array.from({ length: 200 }, (_, i) => `e${String(i).padStart(3, "0")}`));
  });
});
