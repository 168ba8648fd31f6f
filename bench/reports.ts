/**
 * Reports benchmark (issue #18): the inbox benchmark's volume (bench/inbox_seed.ts: 100,000
 * tickets over 30 days, 1,000,000 messages, 20 users, 5 queues), served by a server in its
 * own process (production V8 flags), driven over keep-alive loopback connections. The first
 * dashboard request finds no counters (the seeder writes records directly) and rebuilds them
 * once from the tickets and one scan of the messages: its time is printed. Then each cell
 * measures one call: a closed loop (capacity), an open loop at `--rate` (latency at that
 * throughput), p50/p99 and req/s, and 200 sequential calls on one connection (the latency of
 * one call alone, which the machine's other load moves least). `uptime`'s load is printed
 * first and last: figures on a shared machine mean little without it. The server runs with
 * `--trace-gc` and reports its event-loop stalls, and each open-loop cell is listed at the end
 * with the collector's work and the stalls during it (bench/lib/gc_trace.ts,
 * bench/lib/loop_stalls.ts): a tail is then either a stall or the call's own work.
 *
 *   deno run -A bench/reports.ts [--rate=500] [--requests=5000] [--concurrency=8] [--reuse=dir]
 *     [--server-v8-flags=…]
 *
 * Cells are functions of `Bench` in `CELLS`: a new report adds its own function there.
 */
import { dashBuiltKey } from "../actors/dashboard/aggregates.ts";
import { whatsapps } from "../actors/whatsapps/collection.ts";
import { startServer } from "../server/start.ts";
import { seedStaff, seedVolume } from "./inbox_seed.ts";
import { drive, quantile } from "./lib/drive.ts";
import { describeGc, gcBetween, parseGcTrace } from "./lib/gc_trace.ts";
import { HttpConnection } from "./lib/http_client.ts";
import { describeStalls, parseLoopStalls, watchLoopStalls } from "./lib/loop_stalls.ts";
import { login } from "./lib/server_process.ts";
import { readPortLine } from "./lib/port_line.ts";
import { benchServerV8Flags, PRODUCTION_ENV } from "./lib/v8_flags.ts";
import { backgroundBuilt, loadAverage } from "./lib/settled.ts";

const PASSWORD = "demo1234";
const SECRET = "bench-secret";
const DAY = 86_400_000;

function flag(name: string, fallback: number): number {
  const arg = Deno.args.find((a) => a.startsWith(`--${name}=`));
  return arg ? Number(arg.split("=")[1]) : fallback;
}

/** One measured run. */
export interface Result {
  name: string;
  /** When the run started and ended on this process's clock (to place the server's GC). */
  from: number;
  to: number;
  /** Open loop: the offered rate. */
  rate?: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/** What a cell gets: the server's address, tokens, and the load driver. */
export interface Bench {
  port: number;
  admin: Record<string, string>;
  agents: Array<Record<string, string>>;
  queueIds: number[];
  requests: number;
  concurrency: number;
  rate: number;
  /** Runs `requests` GETs of `path(i)`: closed loop, or open loop at `rate` calls/s. */
  load(
    name: string,
    path: (i: number) => string,
    headers: (i: number) => Record<string, string>,
    rate?: number,
    shape?: { connections: number; requests: number },
  ): Promise<Result>;
  /** Runs 200 GETs of `path(i)` one after the other on one connection. */
  sequential(name: string, path: (i: number) => string, headers: (i: number) => Record<string, string>): Promise<Result>;
}

/** A cell: one report's calls, printed as they finish. */
export type Cell = (b: Bench) => Promise<Result[]>;

const iso = (ms: number) => encodeURIComponent(new Date(ms).toISOString());

/** GET /dashboard for the last 30 days and for today, all users (the figure). */
async function dashboardCell(b: Bench): Promise<Result[]> {
  const now = Date.now();
  const month = `/dashboard?date_from=${iso(now - 30 * DAY)}&date_to=${iso(now)}`;
  const day = `/dashboard?date_from=${iso(now - DAY)}&date_to=${iso(now)}`;
  const queued = (i: number) => `${month}&queueIds=[${b.queueIds[i % b.queueIds.length]}]`;
  const out: Result[] = [];
  const calls = [["30 days, all users", () => month], ["1 day, all users", () => day], ["30 days, one queue", queued]] as const;
  for (const [label, path] of calls) {
    out.push(await b.sequential(`GET /dashboard ${label} [one at a time, 200]`, path, () => b.admin));
    out.push(await b.load(`GET /dashboard ${label} [closed, ${b.concurrency} in flight]`, path, () => b.admin));
    out.push(await b.load(`GET /dashboard ${label} [open, ${b.rate}/s]`, path, () => b.admin, b.rate));
  }
  return out;
}

/** Every cell, in order; the ticket report's cells join here. */
export const CELLS: Cell[] = [dashboardCell];

/** The server process: serves the store at `kvPath` and prints its port. */
async function serve(kvPath: string, dataDir: string): Promise<void> {
  const server = await startServer({ kvPath, dataDir, port: 0, demo: false, passwordHash: "fast", secret: SECRET });
  const waited = await backgroundBuilt(server.deps.system);
  console.error(`server: message indexes built ${waited.toFixed(1)} s after listening; measuring from now`);
  // Exiting through `Deno.exit` flushes C stdio, where V8 keeps the last GC trace lines.
  Deno.addSignalListener("SIGTERM", () => Deno.exit(0));
  console.log(JSON.stringify({ port: server.port, sinceProcessMs: performance.now() }));
  watchLoopStalls();
}


async function seed(dir: string) {
  const kvPath = `${dir}/bench.kv`;
  const dataDir = `${dir}/media`;
  const savedPath = `${dir}/seeded.json`;
  const saved = await Deno.readTextFile(savedPath).then(JSON.parse).catch(() => null);
  if (saved) return { kvPath, dataDir, staff: saved.staff };
  await Deno.mkdir(dir, { recursive: true });
  const first = await startServer({ kvPath, dataDir, port: 0, demo: true, demoHistory: false, demoPassword: PASSWORD, passwordHash: "fast", secret: SECRET });
  const companyId = first.demo!.companyId;
  const conns = await whatsapps.in(first.deps.system, companyId).list();
  const whatsappId = (conns.find((w) => w.isDefault) ?? conns[0]).id;
  const staff = await seedStaff(first.deps.system, companyId, PASSWORD);
  await first.close();
  await seedVolume(kvPath, {
    companyId,
    whatsappId,
    contacts: flag("contacts", 50_000),
    tickets: flag("tickets", 100_000),
    messages: flag("messages", 1_000_000),
    bigTicketMessages: 200,
    searchWord: "reembolso",
  }, staff);
  // The seeder writes records directly, past the desk's counters: drop the marker so the
  // server rebuilds them (what a store older than the counters goes through).
  const kv = await Deno.openKv(kvPath);
  await kv.delete(dashBuiltKey(companyId));
  kv.close();
  await Deno.writeTextFile(savedPath, JSON.stringify({ staff }));
  return { kvPath, dataDir, staff };
}

async function main(): Promise<void> {
  const reuse = Deno.args.find((a) => a.startsWith("--reuse="))?.slice("--reuse=".length);
  const dir = reuse ?? await Deno.makeTempDir({ prefix: "balcao-reports-bench-" });
  const seedAt = performance.now();
  const { kvPath, dataDir, staff } = await seed(dir);
  console.log(`seeded (or reused) in ${((performance.now() - seedAt) / 1000).toFixed(1)} s`);

  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", benchServerV8Flags(), import.meta.filename!, "--serve", kvPath, dataDir],
    env: PRODUCTION_ENV,
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const portLine = await readPortLine<{ port: number; sinceProcessMs: number }>(reader);
  const listeningAt = portLine.at;
  const { port, sinceProcessMs } = portLine.info;
  // Keep the pipe drained; all of it is read at the end (GC trace and loop stalls).
  const serverOutput = (async () => {
    const seen = [portLine.rest];
    for (let r = await reader.read(); !r.done; r = await reader.read()) seen.push(r.value);
    return seen.join("");
  })();
  const base = `http://127.0.0.1:${port}`;
  const admin = { authorization: `Bearer ${await login(base, "admin@demo.local")}` };
  const agents = await Promise.all(
    staff.userEmails.map(async (e: string) => ({ authorization: `Bearer ${await login(base, e)}` })),
  );
  const firstAt = performance.now();
  const first = await fetch(`${base}/dashboard?date_from=${iso(Date.now() - 30 * DAY)}&date_to=${iso(Date.now())}`, { headers: admin });
  const body = await first.json();
  console.log(
    `first GET /dashboard (desk activation + counters rebuilt from 100k tickets and 1M messages): ` +
      `${((performance.now() - firstAt) / 1000).toFixed(2)} s; 30 days: ${body.totalCreatedTicketsCount.count} created, ` +
      `${body.finishedTicketCount.count} finished, ${body.sentMessagesCount + body.receivedMessagesCount} messages`,
  );
  const queues = await (await fetch(`${base}/queue`, { headers: admin })).json();

  const concurrency = flag("concurrency", 8);
  const requests = flag("requests", 5000);
  const bench: Bench = {
    port,
    admin,
    agents,
    queueIds: queues.map((q: { id: number }) => q.id),
    requests,
    concurrency,
    rate: flag("rate", 500),
    sequential(name, path, headers) {
      return this.load(name, path, headers, undefined, { connections: 1, requests: 200 });
    },
    async load(name, path, headers, rate, shape) {
      const from = performance.now();
      const connections = await Promise.all(
        Array.from({ length: shape?.connections ?? (rate ? 32 : concurrency) }, () => HttpConnection.open("127.0.0.1", port)),
      );
      const requests = shape?.requests ?? bench.requests;
      let errors = 0;
      const { latencies, seconds } = await drive(requests, connections.length, async (k, worker) => {
        const reply = await connections[worker].request("GET", path(k), headers(k));
        if (reply.status >= 400) errors++;
      }, rate);
      for (const c of connections) c.close();
      const result = { name, from, to: performance.now(), rate, requests, rps: requests / seconds, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99), errors };
      console.log(
        `${name.padEnd(64)} p50 ${result.p50.toFixed(2).padStart(6)} ms  p99 ${result.p99.toFixed(2).padStart(6)} ms  ` +
          `${result.rps.toFixed(0).padStart(6)} req/s  errors ${errors}`,
      );
      return result;
    },
  };
  await bench.load("warm-up", () => `/dashboard?date_from=${iso(Date.now() - DAY)}`, () => admin);
  console.log(`server ${benchServerV8Flags()}; load before: ${await loadAverage()}`);
  const results: Result[] = [];
  for (const cell of CELLS) results.push(...await cell(bench));
  console.log(`load after: ${await loadAverage()}`);

  child.kill("SIGTERM");
  await child.status;
  const output = await serverOutput;
  const [pauses, stalls] = [parseGcTrace(output), parseLoopStalls(output)];
  const isolateTime = (t: number) => t - listeningAt + sinceProcessMs;
  console.log("\nopen-loop cells with the server's collector and event-loop stalls during each:");
  for (const r of results.filter((x) => x.rate)) {
    const [from, to] = [isolateTime(r.from), isolateTime(r.to)];
    console.log(`  ${r.name.padEnd(58)} p99 ${r.p99.toFixed(2).padStart(7)} ms  ${describeGc(gcBetween(pauses, from, to))}; ${describeStalls(stalls, from, to)}`);
  }
  if (!reuse) await Deno.remove(dir, { recursive: true }).catch(() => {});
}

if (Deno.args[0] === "--serve") await serve(Deno.args[1], Deno.args[2]);
else await main();
