/**
 * Inbox benchmark (issue #3): seeds one company with 50,000 contacts, 100,000 tickets and
 * 1,000,000 messages (bench/inbox_seed.ts), restarts the server in its own process to
 * measure the cold start, then drives it over real HTTP on loopback from this process (a
 * closed loop for capacity, an open loop at `--rate` for latency at that throughput; see
 * `load`) and prints p50/p99 latency and requests/s per call, seeding time, cold start,
 * when the message-search index is ready after the start and the latency of searches before
 * that (bench/lib/start_search.ts), and the server's RSS.
 *
 *   deno run -A bench/inbox.ts [--scale=1] [--tickets=100000] [--contacts=50000] [--messages=1000000]
 *     [--rate=3000] [--concurrency=16] [--requests=20000]
 *
 * Profiling: `--reuse=dir` seeds once into `dir` and reuses it afterwards; the server
 * process's V8 flags can be replaced with `--server-v8-flags=…` and its later output goes to
 * `--server-log=path`. The server always runs with `--trace-gc` added, so each open-loop
 * line is followed by the collector's pauses during it (bench/lib/gc_trace.ts), the server's
 * event-loop stalls (bench/lib/loop_stalls.ts) and the CPU per call of the server and of this
 * process, the client, which share the machine's cores: a tail with no stall and no pause
 * then shows the two processes' cost side by side.
 *
 * With `--serve <kvPath>` it is the server process the benchmark spawns.
 *
 * This file is only the entry; the benchmark is bench/lib/inbox_run.ts. The load generator
 * needs `gc` (it collects its seeding's garbage before timing), so `exposedGc` runs this file
 * again under `--expose-gc` and the first process waits for it. That first process used to
 * load the whole server with the benchmark and then sit idle: V8's memory reducer collected
 * its heap (11–44 ms pauses, two workers beside) on both cores in the middle of the timed
 * calls (`perf sched`: 122 ms of it under one 43 ms cluster of late calls). Loaded only after
 * the re-run, the benchmark is in the second process alone.
 *
 * The load generator's own V8 flags (`LOAD_GENERATOR_V8_FLAGS`): with V8's defaults it ran an
 * incremental mark-compact every 9–12 s (steps up to 8.7 ms, a final pause of 4–10 ms) that
 * held the calls it was timing; a 64 MB young generation and a 256 MB first old-space limit
 * put the next one beyond the benchmark, and no memory reducer shrinks its heap between cells.
 */
import { exposedGc } from "./lib/v8_flags.ts";

const LOAD_GENERATOR_V8_FLAGS = "--max-semi-space-size=64,--initial-old-space-size=256,--no-memory-reducer";

if (Deno.args[0] === "--serve") {
  const { serve } = await import("./lib/inbox_run.ts");
  await serve(Deno.args[1], Deno.args[2]);
} else {
  const gc = await exposedGc(import.meta.filename!, LOAD_GENERATOR_V8_FLAGS);
  const { main } = await import("./lib/inbox_run.ts");
  await main(gc, import.meta.filename!);
}
