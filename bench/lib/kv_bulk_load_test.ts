import assert from "node:assert/strict";
import { loadFromWorker, verifyLoaded } from "./kv_bulk_load.ts";

/** A store that KV has opened once (its tables exist), holding one entry. */
async function store(dir: string): Promise<string> {
  const path = `${dir}/bulk.kv`;
  const kv = await Deno.openKv(path);
  await kv.set(["before"], "kept");
  kv.close();
  return path;
}

function worker(): Worker {
  return new Worker(new URL("./kv_bulk_load_test_worker.ts", import.meta.url), { type: "module" });
}

Deno.test("loadFromWorker writes rows Deno KV reads back exactly, in batches, after what the store held", async () => {
  const dir = await Deno.makeTempDir({ prefix: "balcao-bulk-load-" });
  try {
    const path = await store(dir);
    const entries: Array<[Deno.KvKey, unknown]> = [];
    // More rows than a batch and a statement, so both boundaries are crossed.
    for (let i = 0; i < 5_321; i++) {
      entries.push([["message", 2, i >> 4, `id-${String(i).padStart(6, "0")}`], {
        id: i, body: i % 7 ? `mensagem ${i} ação` : `emoji 😀 ${i}`, at: 1_764_000_000_000 + i, ratio: i / 3, read: i % 2 === 0,
        quoted: null, tags: [i, "t"],
      }]);
    }
    // Values the worker's own writer leaves to Deno's serializer.
    entries.push([["odd", "date"], new Date(5)], [["odd", "bigint"], 12n], [["odd", "map"], new Map([["a", 1]])]);
    const loader = worker();
    loader.postMessage(entries);
    const { result, rows } = await loadFromWorker<number>(path, loader);
    assert.equal(result, entries.length);
    assert.equal(rows, entries.length);

    await verifyLoaded(path, entries);
    const kv = await Deno.openKv(path);
    try {
      assert.equal((await kv.get(["before"])).value, "kept");
      const listed = await Array.fromAsync(kv.list({ prefix: ["message"] }));
      assert.deepEqual(listed.map((e) => e.key), entries.filter(([key]) => key[0] === "message").map(([key]) => key));
      // The load is one version, newer than what the store held; KV's own writes go on after it.
      const before = (await kv.get(["before"])).versionstamp!;
      assert.ok(listed[0].versionstamp > before);
      const after = await kv.set(["after"], 1);
      assert.ok(after.ok && after.versionstamp > listed[0].versionstamp);
    } finally {
      kv.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("loadFromWorker refuses a file that is not a KV store, and verifyLoaded a value that differs", async () => {
  const dir = await Deno.makeTempDir({ prefix: "balcao-bulk-load-" });
  try {
    const loader = worker();
    await assert.rejects(loadFromWorker(`${dir}/empty.sqlite`, loader), /not a Deno KV store/);
    loader.terminate();
    const path = await store(dir);
    await assert.rejects(verifyLoaded(path, [[["before"], "changed"]]), /reads back through Deno KV unchanged/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
