/**
 * Searches right after a start (issue #23 §1), both kinds of start: a store without a saved
 * message index (the first start after an upgrade, or a store a seeder wrote: the index is
 * built, 20–50 s at 1M messages) and a store with one (every later restart: it is loaded,
 * actors/messages/search_store.ts). For each it prints when the index was complete after
 * listening and the latency of the searches of the first 10 s (bench/lib/start_search.ts),
 * beside the same figure for a ticket list in the same window of another start: what any
 * call pays then (the collector finishing the warm-up's garbage, a loaded machine) is not
 * the search's. The load average is printed beside each figure: the machine is shared.
 *
 *   deno run -A bench/search_start.ts [--reuse=dir] [--rounds=2] [--scale=1]
 *
 * The store is bench/inbox.ts's (bench/lib/inbox_store.ts; `--reuse` as there) and the server
 * process is bench/inbox.ts's `--serve` under production's V8 flags.
 */
import { BENCH_PASSWORD, BENCH_SECRET, flag, SEARCH_WORD } from "./lib/args.ts";
import { inboxStore } from "./lib/inbox_store.ts";
import { discardRest, readPortLine } from "./lib/port_line.ts";
import { loadAverage } from "./lib/settled.ts";
import { probeStartSearch, type StartSearch } from "./lib/start_search.ts";
import { PRODUCTION_ENV, PRODUCTION_V8_FLAGS } from "./lib/v8_flags.ts";

const PASSWORD = BENCH_PASSWORD;
const SECRET = BENCH_SECRET;

/** The companies that have a saved message index (its head), read from a store not in use. */
async function savedHeads(kvPath: string): Promise<Deno.KvKey[]> {
  const kv = await Deno.openKv(kvPath);
  try {
    const heads: Deno.KvKey[] = [];
    for await (const { key } of kv.list({ prefix: ["search_index"] })) if (key[2] === "head") heads.push(key);
    return heads;
  } finally {
    kv.close();
  }
}

/**
 * Starts the server process on `kvPath`, probes `path` from listening on, waits for
 * `before` to resolve if given (the server still running), and stops it.
 */
async function startAndProbe(
  kvPath: string,
  dataDir: string,
  path: string,
  before?: () => Promise<void>,
): Promise<StartSearch> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `--v8-flags=${PRODUCTION_V8_FLAGS}`, new URL("./inbox.ts", import.meta.url).pathname, "--serve", kvPath, dataDir],
    env: PRODUCTION_ENV,
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  try {
    const { info: { port }, at: listeningAt } = await readPortLine(reader);
    discardRest(reader);
    const login = await fetch(`http://127.0.0.1:${port}/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "admin@demo.local", password: PASSWORD }),
    });
    if (!login.ok) throw new Error(`Login: ${login.status}`);
    const { token } = await login.json();
    const found = await probeStartSearch({
      hostname: "127.0.0.1",
      port,
      path,
      headers: { authorization: `Bearer ${token}` },
      listeningAt,
    });
    await before?.();
    return found;
  } finally {
    child.kill("SIGTERM");
    await child.status;
  }
}

function line(name: string, s: StartSearch, load: string): string {
  const ready = s.readyMs === null ? "never" : `${(s.readyMs / 1000).toFixed(2)} s`;
  return `${name.padEnd(34)} ready ${ready.padStart(8)}  first 10 s: ${String(s.calls).padStart(3)} calls ` +
    `(${String(s.partial).padStart(3)} partial) p50 ${s.p50.toFixed(2).padStart(6)} ms  p99 ${s.p99.toFixed(2).padStart(7)} ms  ` +
    `max ${s.max.toFixed(2).padStart(7)} ms  [load ${load}]`;
}

async function main(): Promise<void> {
  const scale = flag("scale", 1);
  const reuse = Deno.args.find((a) => a.startsWith("--reuse="))?.slice("--reuse=".length);
  const store = await inboxStore({
    contacts: 50_000 * scale,
    tickets: 100_000 * scale,
    messages: 1_000_000 * scale,
    bigTicketMessages: 200,
    searchWord: SEARCH_WORD,
  }, { reuse, password: PASSWORD, secret: SECRET });
  console.log(`store: ${store.kvPath} (seeded in ${store.seedSeconds.toFixed(1)} s)`);
  const search = `/tickets?searchParam=${SEARCH_WORD}&showAll=true`;
  const list = "/tickets?status=open&showAll=true";
  try {
    for (let round = 1; round <= flag("rounds", 2); round++) {
      // Without a saved index: what a start after an upgrade (or after a seeder) does. Its
      // server runs until it has saved the index it built, for the next start to load.
      const heads = await savedHeads(store.kvPath);
      const kv = await Deno.openKv(store.kvPath);
      for (const head of heads) await kv.delete(head);
      const saved = async () => {
        const deadline = Date.now() + 120_000;
        const missing = async () =>
          heads.length === 0
            ? (await savedHeads(store.kvPath)).length === 0
            : (await kv.getMany(heads)).some((entry) => entry.value === null);
        while (Date.now() < deadline && await missing()) {
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      };
      const built = await startAndProbe(store.kvPath, store.dataDir, search, saved);
      kv.close();
      console.log(line(`search, no saved index (build)`, built, await loadAverage()));
      // The start above built the index and saved it: these load it.
      console.log(line(`search, saved index (load)`, await startAndProbe(store.kvPath, store.dataDir, search), await loadAverage()));
      console.log(line(`ticket list, same window`, await startAndProbe(store.kvPath, store.dataDir, list), await loadAverage()));
    }
  } finally {
    if (!reuse) await Deno.remove(store.dir, { recursive: true }).catch(() => {});
  }
}

await main();
