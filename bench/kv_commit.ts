/**
 * Durable writes per second through the actor kernel: the naive path (one `kv.atomic()` per
 * handler, `grouping: false`) against group commit, at 1, 8 and 64 concurrent writers, on a
 * file-backed KV in a temporary directory. Each writer is a loop that asks its own actor to
 * write one new key and waits for the reply, which the output gate releases only once the
 * write is durable; so every counted write was acknowledged after commit.
 *
 * The last column is the store's ceiling for the cell (`ceiling` below): what `kv.atomic()`
 * alone does with the same number of keys per commit.
 *
 * Run: `deno task bench` (all benches) or `deno run -A bench/kv_commit.ts [seconds per cell]`.
 */
import { ActorSystem, defineActor } from "../actors/_runtime/mod.ts";

const WRITERS = [1, 8, 64];
const seconds = Number(Deno.args[0] ?? 3);
/**
 * Each cell runs this many rounds of (naive, group commit, raw ceiling), each a third of the
 * cell's time, and reports medians: this machine's disk speed drifts by 2× within a minute,
 * and interleaving makes every path see the same conditions, so the ratio is stable.
 */
const ROUNDS = 3;
const slice = seconds / ROUNDS;

/**
 * Where the writes land, which decides how many SQLite pages a commit dirties:
 * - `append`: every writer appends to one time-ordered range (`["log", time, writer, n]`, like
 *   ULID-keyed messages), so a batch fills a few adjacent pages;
 * - `ranges`: each writer appends to its own range (`["log", writer, n]`, like messages under
 *   their ticket), so a batch of 64 units dirties 64 separate leaf pages.
 */
type Layout = "append" | "ranges";

/** One actor per writer; every ask writes one new key of about 100 bytes. */
const writer = defineActor({
  kind: "bench_writer",
  load: () => Promise.resolve({ n: 0 }),
  handlers: {
    put(ctx, arg: { layout: Layout; payload: string }) {
      const n = ++ctx.state.n;
      const key = arg.layout === "append"
        ? ["log", ctx.now, Number(ctx.id), n]
        : ["log", Number(ctx.id), n];
      ctx.set(key, { n, payload: arg.payload });
      return n;
    },
  },
});

interface Cell {
  writesPerSecond: number;
  unitsPerCommit: number;
}

/** Runs `writers` ask loops for `seconds` against a fresh file KV; returns the measured rate. */
async function measure(layout: Layout, grouping: boolean, writers: number): Promise<Cell> {
  const dir = await Deno.makeTempDir({ prefix: "kv_commit_bench_" });
  const kv = await Deno.openKv(`${dir}/bench.kv`);
  const system = new ActorSystem(kv, { grouping });
  const arg = { layout, payload: "x".repeat(80) };
  try {
    // Warm-up: activate every writer and grow the SQLite file a little.
    for (let i = 0; i < 20; i++) {
      await Promise.all(
        Array.from({ length: writers }, (_, w) => system.ref(writer, w).ask("put", arg)),
      );
    }
    const before = { ...system.committer.stats };
    const deadline = performance.now() + slice * 1000;
    let writes = 0;
    const start = performance.now();
    await Promise.all(Array.from({ length: writers }, async (_, w) => {
      const ref = system.ref(writer, w);
      while (performance.now() < deadline) {
        await ref.ask("put", arg);
        writes++;
      }
    }));
    const elapsed = (performance.now() - start) / 1000;
    const after = system.committer.stats;
    return {
      writesPerSecond: writes / elapsed,
      unitsPerCommit: (after.units - before.units) / Math.max(1, after.commits - before.commits),
    };
  } finally {
    await system.close();
    kv.close();
    await system.listening.catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * The store's own ceiling for a cell: one loop committing `writers` new keys per
 * `kv.atomic()`, back to back, with no actors, mailboxes or output gate. Group commit cannot
 * beat it (each of its commits carries at most the writers' units), so the ratio to the
 * naive path is bounded by what the disk does per commit, not by the kernel.
 */
async function ceiling(layout: Layout, writers: number): Promise<number> {
  const dir = await Deno.makeTempDir({ prefix: "kv_commit_bench_" });
  const kv = await Deno.openKv(`${dir}/bench.kv`);
  const payload = "x".repeat(80);
  try {
    let n = 0;
    const commit = async () => {
      n++;
      const op = kv.atomic();
      const now = Date.now();
      for (let w = 0; w < writers; w++) {
        op.set(layout === "append" ? ["log", now, w, n] : ["log", w, n], { n, payload });
      }
      await op.commit();
    };
    for (let i = 0; i < 20; i++) await commit();
    const deadline = performance.now() + slice * 1000;
    const start = performance.now();
    let writes = 0;
    while (performance.now() < deadline) {
      await commit();
      writes += writers;
    }
    return writes / ((performance.now() - start) / 1000);
  } finally {
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const rate = (n: number) => Math.round(n).toLocaleString("en-US");

const load = () => Deno.loadavg().map((n) => n.toFixed(1)).join(" ");
console.log(
  `kv_commit: durable writes/s through ActorSystem.ask, file KV, ${seconds} s per path and cell in ${ROUNDS} interleaved rounds (medians; ratio = median of the rounds' ratios)`,
);
console.log(`machine: ${navigator.hardwareConcurrency} cores, load average ${load()} at start`);
for (const layout of ["append", "ranges"] as const) {
  console.log(`\nkey layout: ${layout}`);
  console.log("writers |      naive | group-commit |  ratio | units/commit | raw KV ceiling");
  console.log("--------+------------+--------------+--------+--------------+---------------");
  let last = "";
  for (const writers of WRITERS) {
    const rounds: Array<{ naive: Cell; group: Cell; raw: number }> = [];
    for (let r = 0; r < ROUNDS; r++) {
      rounds.push({
        naive: await measure(layout, false, writers),
        group: await measure(layout, true, writers),
        raw: await ceiling(layout, writers),
      });
    }
    const naive = { writesPerSecond: median(rounds.map((x) => x.naive.writesPerSecond)) };
    const group = {
      writesPerSecond: median(rounds.map((x) => x.group.writesPerSecond)),
      unitsPerCommit: median(rounds.map((x) => x.group.unitsPerCommit)),
    };
    const raw = median(rounds.map((x) => x.raw));
    const ratio = median(rounds.map((x) => x.group.writesPerSecond / x.naive.writesPerSecond)).toFixed(1);
    console.log(
      `${String(writers).padStart(7)} | ${rate(naive.writesPerSecond).padStart(10)} | ${
        rate(group.writesPerSecond).padStart(12)
      } | ${ratio.padStart(5)}× | ${group.unitsPerCommit.toFixed(1).padStart(12)} | ${
        rate(raw).padStart(14)
      }`,
    );
    last = `ratio at ${writers} writers (${layout}): ${ratio}× ` +
      `(group-commit ${rate(group.writesPerSecond)} vs naive ${
        rate(naive.writesPerSecond)
      } writes/s; raw KV ceiling ${rate(raw)}, ${
        (raw / naive.writesPerSecond).toFixed(1)
      }× naive: group commit reaches ${Math.round(100 * group.writesPerSecond / raw)}% of it)`;
  }
  console.log(last);
}
console.log(`\nload average ${load()} at end (other processes share the cores and the disk)`);
