/**
 * Sustained `POST /api/messages/send` (issue #22): how many sends per second the external
 * messages API accepts through the demo's simulator connection, and at what latency. Goal:
 * ≥ 1,000 accepted/s with p99 ≤ 50 ms.
 *
 * The server runs in a child process (this file with `--server`, production's V8 flags, a
 * file-backed KV in a temporary folder, the demo seeded) so the load generator does not share
 * its event loop; requests go over loopback with keep-alive connections (bench/lib/http_client.ts).
 * The per-token rate limit is lifted for the run (BALCAO_API_RATE), as a customer with a
 * raised limit would have it.
 *
 * "Accepted" is a 200: the message is stored in the contact's ticket (ack 0), published to the
 * agents, and queued on the connection's durable outbox; the simulator then sends it paced
 * (100/s per connection here, 40/min on a real number), behind the answer, so the send backlog
 * grows during the run, as it would. First a warm-up sends once to each of the bench's
 * customer numbers: a new number costs one WhatsApp check through the connection's pacing
 * (remembered afterwards), which is what keeps a first send to a new number slow.
 *
 * Prints: the warm-up, a closed loop at 64 in flight (capacity), and open loops at 500 and
 * 1,000 requests/s for 10 s with at most 256 in flight (latency at that rate; bench/lib/drive.ts).
 *
 * `--memory` runs the server on an in-memory KV (no disk writes): the difference to the default
 * run is what the disk's commits cost.
 *
 * Run: `deno run -A bench/api_send.ts [numbers] [--memory]` or `deno task bench api_send`.
 */
import { drive, quantile } from "./lib/drive.ts";
import { HttpConnection } from "./lib/http_client.ts";
import { PRODUCTION_ENV, PRODUCTION_V8_FLAGS } from "./lib/v8_flags.ts";

const NUMBERS = Number(Deno.args.find((a) => /^\d+$/.test(a)) ?? 200);
const CLOSED = { concurrency: 64, requests: 10_000 };
const OPEN_RATES = [500, 1_000];
const OPEN_SECONDS = 10;
const OPEN_IN_FLIGHT = 256;

// ───────────────────────────── server process ─────────────────────────────

async function serverMain(): Promise<void> {
  const { startServer } = await import("../server/start.ts");
  const { whatsapps } = await import("../actors/whatsapps/collection.ts");
  const dir = Deno.args[Deno.args.indexOf("--server") + 1];
  const server = await startServer({
    port: 0,
    kvPath: Deno.args.includes("--memory") ? ":memory:" : `${dir}/bench.kv`,
    dataDir: `${dir}/media`,
    demo: true,
    // The demo without its thirty days (server/seed/history): the bench counts its own traffic.
    demoHistory: false,
    passwordHash: "fast",
    secret: "api-send-bench",
  });
  const companyId = server.demo!.companyId;
  const conn = (await whatsapps.in(server.deps.system, companyId).list()).find((w) => w.name === "WhatsApp Demo")!;
  console.log(JSON.stringify({ port: server.port, token: conn.token, queueId: server.demo!.queueIds[0] }));
  // Runs until the bench closes stdin.
  for await (const _ of Deno.stdin.readable) { /* wait */ }
  await server.close();
}

// ───────────────────────────── client process ─────────────────────────────

/** The customer number of send `k` (round robin over the bench's numbers). */
const numberOf = (k: number) => `55119${String(10_000_000 + (k % NUMBERS)).padStart(8, "0")}`;

async function clientMain(): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "balcao-api-bench-" });
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      ...(PRODUCTION_V8_FLAGS ? [`--v8-flags=${PRODUCTION_V8_FLAGS}`] : []),
      // API_BENCH_PROFILE=<dir>: a CPU profile of the server process.
      ...(Deno.env.get("API_BENCH_PROFILE") ? ["--cpu-prof", `--cpu-prof-dir=${Deno.env.get("API_BENCH_PROFILE")}`] : []),
      new URL(import.meta.url).pathname,
      "--server",
      dir,
      ...(Deno.args.includes("--memory") ? ["--memory"] : []),
    ],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
    env: { ...PRODUCTION_ENV, BALCAO_API_RATE: "1000000", BALCAO_API_BURST: "1000000" },
  }).spawn();
  try {
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!text.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) throw new Error("The server process ended before it was ready");
      text += value;
    }
    const ready = JSON.parse(text.slice(0, text.indexOf("\n")));
    // Whatever else the server prints is passed on.
    (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        for (const line of value.split("\n")) if (line) console.log(`[server] ${line}`);
      }
    })().catch(() => {});
    const headers = { authorization: `Bearer ${ready.token}`, "content-type": "application/json" };
    const connections = await Promise.all(
      Array.from({ length: OPEN_IN_FLIGHT }, () => HttpConnection.open("127.0.0.1", ready.port)),
    );
    const statuses = new Map<number, number>();
    const send = async (k: number, worker: number) => {
      const body = JSON.stringify({ number: numberOf(k), body: `Mensagem ${k} da API`, openTicket: 1, queueId: ready.queueId });
      const reply = await connections[worker].request("POST", "/api/messages/send", headers, body);
      statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
    };
    const report = (label: string, run: { latencies: Float64Array; seconds: number }) => {
      const accepted = statuses.get(200) ?? 0;
      const others = [...statuses].filter(([s]) => s !== 200).map(([s, n]) => `${n}×${s}`).join(", ") || "none";
      console.log(
        `${label.padEnd(34)} ${String(run.latencies.length).padStart(6)} requests in ${run.seconds.toFixed(2)} s: ` +
          `${(accepted / run.seconds).toFixed(0).padStart(5)} accepted/s, p50 ${quantile(run.latencies, 0.5).toFixed(1)} ms, ` +
          `p99 ${quantile(run.latencies, 0.99).toFixed(1)} ms, max ${quantile(run.latencies, 1).toFixed(1)} ms; refused: ${others}`,
      );
      statuses.clear();
    };

    console.log(`KV: ${Deno.args.includes("--memory") ? "in memory" : "file in a temporary folder"}; load average ${Deno.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
    report(`warm-up: ${NUMBERS} new numbers, 8 in flight`, await drive(NUMBERS, 8, send));
    report(`closed loop, ${CLOSED.concurrency} in flight`, await drive(CLOSED.requests, CLOSED.concurrency, send));
    for (const rate of OPEN_RATES) {
      report(`open loop at ${rate}/s (≤ ${OPEN_IN_FLIGHT} in flight)`, await drive(rate * OPEN_SECONDS, OPEN_IN_FLIGHT, send, rate));
    }
    for (const c of connections) c.close();
  } finally {
    await child.stdin.close().catch(() => {});
    await child.status;
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

if (Deno.args.includes("--server")) await serverMain();
else await clientMain();
