/**
 * Ticket report benchmark (issue #18): on the inbox benchmark's volume (bench/inbox_seed.ts:
 * 100,000 tickets, 1,000,000 messages, 20 users, 5 queues), a server in its own process is
 * driven over loopback and the figures printed are
 * - `GET /ticketreport/reports` page 1 with three filters (user + queue + status, and
 *   connection + status + date range, which no per-user or per-queue list narrows): p50/p99
 *   of 200 calls one at a time (the least load-sensitive figure), in a closed loop and in an
 *   open loop at `--rate`, with `uptime`'s load printed before and after;
 * - the .xlsx export of every ticket (100,000 rows): seconds to the last byte and the server's
 *   RSS growth during it (sampled every 20 ms from /proc), the first export (which loads
 *   exceljs) and a second one; the file is opened back with exceljs to count its rows.
 *
 *   deno run -A bench/report_export.ts [--tickets=100000] [--messages=1000000] [--rate=500]
 *     [--requests=5000] [--reuse=dir]
 *
 * With `--serve <kvPath> <dataDir>` it is the server process the benchmark spawns.
 */
import { whatsapps } from "../actors/whatsapps/collection.ts";
import { startServer } from "../server/start.ts";
import { seedStaff, seedVolume } from "./inbox_seed.ts";
import { drive, quantile } from "./lib/drive.ts";
import { HttpConnection } from "./lib/http_client.ts";
import { login } from "./lib/server_process.ts";
import { discardRest, readPortLine } from "./lib/port_line.ts";
import { PRODUCTION_ENV, PRODUCTION_V8_FLAGS } from "./lib/v8_flags.ts";
import { backgroundBuilt, loadAverage } from "./lib/settled.ts";

const PASSWORD = "demo1234";
const SECRET = "bench-secret";

function flag(name: string, fallback: number): number {
  const arg = Deno.args.find((a) => a.startsWith(`--${name}=`));
  return arg ? Number(arg.split("=")[1]) : fallback;
}

async function serve(kvPath: string, dataDir: string): Promise<void> {
  const server = await startServer({ kvPath, dataDir, port: 0, demo: false, passwordHash: "fast", secret: SECRET });
  const waited = await backgroundBuilt(server.deps.system);
  console.error(`server: message indexes built ${waited.toFixed(1)} s after listening; measuring from now`);
  console.log(JSON.stringify({ port: server.port }));
}

function rssMb(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  return Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? 0) / 1024;
}


async function main(): Promise<void> {
  const plan = {
    contacts: flag("contacts", 50_000),
    tickets: flag("tickets", 100_000),
    messages: flag("messages", 1_000_000),
    bigTicketMessages: 200,
    searchWord: "reembolso",
  };
  const reuse = Deno.args.find((a) => a.startsWith("--reuse="))?.slice("--reuse=".length);
  const dir = reuse ?? await Deno.makeTempDir({ prefix: "balcao-report-bench-" });
  const kvPath = `${dir}/bench.kv`;
  const dataDir = `${dir}/media`;
  const savedPath = `${dir}/report-seeded.json`;
  const saved = reuse ? await Deno.readTextFile(savedPath).then(JSON.parse).catch(() => null) : null;

  let staff: { userIds: number[]; queueIds: number[]; whatsappId: number };
  const seedStart = performance.now();
  if (saved) staff = saved;
  else {
    if (reuse) await Deno.mkdir(dir, { recursive: true });
    const first = await startServer({ kvPath, dataDir, port: 0, demo: true, demoHistory: false, demoPassword: PASSWORD, passwordHash: "fast", secret: SECRET });
    const companyId = first.demo!.companyId;
    const conns = await whatsapps.in(first.deps.system, companyId).list();
    const whatsappId = (conns.find((w) => w.isDefault) ?? conns[0])!.id;
    const seeded = await seedStaff(first.deps.system, companyId, PASSWORD);
    await first.close();
    await seedVolume(kvPath, { ...plan, companyId, whatsappId }, seeded);
    staff = { userIds: seeded.userIds, queueIds: seeded.queueIds, whatsappId };
    if (reuse) await Deno.writeTextFile(savedPath, JSON.stringify(staff));
  }
  console.log(`seeded ${plan.tickets} tickets, ${plan.messages} messages in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `--v8-flags=${PRODUCTION_V8_FLAGS}`, import.meta.filename!, "--serve", kvPath, dataDir],
    env: PRODUCTION_ENV,
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const { port } = (await readPortLine(reader)).info;
  discardRest(reader);
  const base = `http://127.0.0.1:${port}`;
  const token = await login(base, "admin@demo.local");
  const auth = { authorization: `Bearer ${token}` };
  // Activate the desk (loads the 100,000 tickets) before measuring.
  await (await fetch(`${base}/ticketreport/reports`, { headers: auth })).arrayBuffer();

  // 1. Page 1 with three filters.
  const q = (o: Record<string, unknown>) =>
    "/ticketreport/reports?" + new URLSearchParams(Object.entries(o).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]));
  const since = new Date(Date.now() - 15 * 86_400_000).toISOString();
  const calls: Array<[string, (i: number) => string]> = [
    ["users + queueIds + status=closed", (i) => q({ users: [staff.userIds[i % 20]], queueIds: [staff.queueIds[i % 5]], status: ["closed"] })],
    ["whatsappId + status=open,closed + dateFrom (15 days)", () => q({ whatsappId: String(staff.whatsappId), status: ["open", "closed"], dateFrom: since })],
  ];
  const N = flag("requests", 5000);
  const RATE = flag("rate", 500);
  const C = 8;
  const run = async (name: string, path: (i: number) => string, rate?: number, alone = false) => {
    const [n, c] = alone ? [200, 1] : [N, C];
    const conns = await Promise.all(Array.from({ length: c }, () => HttpConnection.open("127.0.0.1", port)));
    let errors = 0;
    let total = 0;
    const { latencies, seconds } = await drive(n, c, async (k, w) => {
      const reply = await conns[w].request("GET", path(k), auth);
      if (reply.status !== 200) errors++;
      else if (k === 0) total = JSON.parse(new TextDecoder().decode(reply.body)).totalTickets.total;
    }, rate);
    for (const c of conns) c.close();
    console.log(
      `GET /ticketreport/reports page 1, ${name} [${alone ? "one at a time, 200" : rate ? `open, ${rate}/s` : `closed, ${C} in flight`}]`.padEnd(100) +
        ` p50 ${quantile(latencies, 0.5).toFixed(2)} ms  p99 ${quantile(latencies, 0.99).toFixed(2)} ms  ${(n / seconds).toFixed(0)} req/s  errors ${errors}  (first call's total: ${total})`,
    );
  };
  await run("warm-up", calls[0][1]);
  console.log(`load before: ${await loadAverage()}`);
  for (const [name, path] of calls) {
    await run(name, path, undefined, true);
    await run(name, path);
    await run(name, path, RATE);
  }

  // 2. The export of every ticket, twice (the first loads exceljs).
  for (const label of ["first export (loads exceljs)", "second export"]) {
    await new Promise((r) => setTimeout(r, 1000));
    const before = rssMb(child.pid);
    let peak = before;
    const sampler = setInterval(() => peak = Math.max(peak, rssMb(child.pid)), 20);
    const started = performance.now();
    const response = await fetch(`${base}/ticketreport/reports/export`, { headers: auth });
    const bytes = new Uint8Array(await response.arrayBuffer());
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, rssMb(child.pid));
    const { default: Excel } = await import("exceljs");
    const book = new Excel.Workbook();
    await book.xlsx.load(bytes.buffer);
    const rows = book.worksheets[0].rowCount - 1;
    console.log(
      `export ${label}: ${response.headers.get("x-total-count")} rows (${rows} read back) in ${seconds.toFixed(2)} s, ` +
        `${(bytes.length / 1e6).toFixed(1)} MB; server RSS ${before.toFixed(0)} → peak ${peak.toFixed(0)} MB (growth ${(peak - before).toFixed(0)} MB)`,
    );
  }

  console.log(`load after: ${await loadAverage()}`);
  child.kill("SIGTERM");
  await child.status;
  if (!reuse) await Deno.remove(dir, { recursive: true }).catch(() => {});
}

if (Deno.args[0] === "--serve") await serve(Deno.args[1], Deno.args[2]);
else await main();
