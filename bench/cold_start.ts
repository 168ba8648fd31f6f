/**
 * Cold starts of a seeded store (issue #23 §3: ≤ 10 s to the first list at 1,000,000 tickets
 * and 500,000 contacts): spawns the server (`bench/inbox.ts --serve`, production's V8 flags)
 * `--runs` times on the same store, and prints for each the time from spawn to the first list
 * served, the server's own start-up time, its memory, and which read models it loaded from
 * snapshots (actors/_runtime/record_snapshot.ts). A start that found no snapshot waits for the
 * server to save them before stopping it, so the next start loads them. Each stop is a
 * SIGTERM that exits at once, as a crash would: nothing is saved on the way out.
 *
 *   deno run -A bench/cold_start.ts <path/to/bench.kv> <dataDir> [--runs=3]
 *
 * The store comes from `bench/inbox.ts --scale=10 --reuse=<dir>` (bench.kv in that dir).
 */
import { flag } from "./lib/args.ts";
import { readPortLine } from "./lib/port_line.ts";
import { login, rssOf } from "./lib/server_process.ts";
import { loadAverage } from "./lib/settled.ts";
import { PRODUCTION_ENV, PRODUCTION_V8_FLAGS } from "./lib/v8_flags.ts";

const [kvPath, dataDir] = Deno.args.filter((a) => !a.startsWith("--"));
if (!kvPath || !dataDir) {
  console.error("usage: deno run -A bench/cold_start.ts <kvPath> <dataDir> [--runs=3]");
  Deno.exit(2);
}
const runs = flag("runs", 3);
const SAVED = /The (tickets|contacts) of company \d+: snapshot \d+ saved/g;
const LOADED = /The (?:tickets|contacts) of company \d+: snapshot \d+ loaded \([^)]*\)/g;

for (let run = 1; run <= runs; run++) {
  const load = await loadAverage();
  const spawnAt = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      ...(PRODUCTION_V8_FLAGS ? [`--v8-flags=${PRODUCTION_V8_FLAGS}`] : []),
      new URL("./inbox.ts", import.meta.url).pathname,
      "--serve",
      kvPath,
      dataDir,
    ],
    env: PRODUCTION_ENV,
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const portLine = await readPortLine<{ port: number; startMs: number }>(reader);
  const base = `http://127.0.0.1:${portLine.info.port}`;
  const token = await login(base, "admin@demo.local");
  const first = await fetch(`${base}/tickets?status=open&showAll=true`, { headers: { authorization: `Bearer ${token}` } });
  if (!first.ok) throw new Error(`First list: ${first.status}`);
  await first.arrayBuffer();
  const coldStart = (performance.now() - spawnAt) / 1000;
  const memory = rssOf(child.pid);
  const loaded = portLine.rest.match(LOADED) ?? [];
  console.log(
    `run ${run} (load ${load}): cold start (spawn → first list served) ${coldStart.toFixed(2)} s, ` +
      `startServer ${(portLine.info.startMs / 1000).toFixed(2)} s, RSS ${memory.rss.toFixed(0)} MB ` +
      `(peak ${memory.peak.toFixed(0)} MB)`,
  );
  console.log(`  from snapshots: ${loaded.length ? loaded.join("; ") : "none (every record listed)"}`);
  if (loaded.length < 2 && run < runs) {
    // Let the server save what the next start should load (its output after the port line).
    const savedAt = performance.now();
    let text = "";
    const saved = new Set<string>();
    while (saved.size < 2 && performance.now() - savedAt < 600_000) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
      for (const match of text.matchAll(SAVED)) saved.add(match[1]);
      text = text.slice(-500);
    }
    console.log(`  snapshots saved by the server ${((performance.now() - savedAt) / 1000).toFixed(1)} s after its first list`);
  }
  child.kill("SIGTERM");
  (async () => {
    while (!(await reader.read()).done) { /* drain */ }
  })().catch(() => {});
  await child.status;
}
