/**
 * A bulk campaign at full speed beside a live conversation (issue #19): 10,000 contacts over
 * two simulator connections with the campaign's pacing at zero (BALCAO_CAMPAIGN_TIME_SCALE=0,
 * so only the connections' shared anti-ban pacer spaces the sends), while an agent answers an
 * accepted ticket on the first of those connections every 100 ms. The campaign must never
 * block the conversation: goal p99 ≤ 100 ms for a live reply.
 *
 * The real `server/main.ts` runs in a child process (tests/helpers/child_server.ts, production's
 * V8 flags through DENO_V8_FLAGS, a file KV in a temporary folder, the demo seeded), so the
 * load generator does not share its event loop. The contact list is seeded straight into the
 * store's file (tests/helpers/campaign_lists.ts, the keys the engine reads); the campaign is
 * created and started through the campaigns API, as the screens do.
 *
 * Prints:
 * - messages/s: the campaign's messages as the simulator's phones received them (their outbox
 *   timestamps): over the whole run, and the median and slowest of its whole seconds;
 * - the live replies (POST /messages/{ticketId}, open loop at 10/s, latency counted from each
 *   reply's due time, bench/lib/drive.ts): p50/p99/max of the HTTP answer and of the time until
 *   the phone had it (its outbox entry's timestamp, same machine's clock), both against the
 *   100 ms goal;
 * - the server's RSS: peak (VmHWM) and the last sample;
 * - the report's reads (GET /campaigns/{id}/report, #19: its counts are kept by the actors, not
 *   counted over the rows): p50/p99 of 50 reads of its first page while the campaign runs
 *   (one after another, 100 ms apart, beside the live replies) and of 50 after it ended, then
 *   20 of a middle page (pageNumber 100) and 20 of a status filter's middle page, with the
 *   load average at each. Measured once the counts were kept (#19), same machine, load ~3.5,
 *   before → after: while it runs p50 341 → 4.5 ms, p99 1,051 → 11 ms; after it ended p50
 *   252 → 3.0 ms, p99 585 → 9.7 ms; page 100 p50 251 → 2.9 ms; status=delivered page 100 p50
 *   582 → 2.7 ms (and the live replies' p99 150 → 50 ms, no longer queued behind the reads);
 * - final counts: the report's delivered, the outboxes' campaign messages, numbers that got
 *   more than one message and the re-sends the simulator's ledger recognised (goal: delivered
 *   == contacts, duplicates 0).
 *
 * Run: `deno run -A bench/campaign.ts [--contacts=N]` or `deno task bench campaign`.
 */
import { drive, quantile } from "./lib/drive.ts";
import { HttpConnection } from "./lib/http_client.ts";
import { PRODUCTION_ENV, PRODUCTION_V8_FLAGS } from "./lib/v8_flags.ts";
import { loginAt, spawnServer } from "../tests/helpers/child_server.ts";
import { seedContactList } from "../tests/helpers/campaign_lists.ts";
import type { OutboxEntry, SimulatorLedgerEntry } from "../server/channels/simulator.ts";

const CONTACTS = Number(Deno.args.find((a) => a.startsWith("--contacts="))?.slice("--contacts=".length) ?? 10_000);
const LIST_ID = 90;
const REPLY_EVERY_MS = 100;
/** Replies are driven in rounds of this many (5 s) until the campaign ends. */
const REPLY_ROUND = 50;
const REPLY_CONNECTIONS = 4;
/** The campaign's time budget, after which the bench reports what it has. */
const CAMPAIGN_BUDGET_MS = 165_000;
const CUSTOMER = "5511987650001";
const CAMPAIGN_TEXT = /^(Oferta|Promo) /;

const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;
const ms = (v: number) => `${v.toFixed(1)} ms`;
const sleep = (n: number) => new Promise((resolve) => setTimeout(resolve, n));
const load = () => Deno.loadavg().map((l) => l.toFixed(1)).join(" ");

/** Client-side times of `n` report reads one after another, `gapMs` apart, and the last body. */
async function timeReports(read: () => Promise<{ status: number; body: { counts: { delivered: number } } }>, n: number, gapMs: number) {
  const times: number[] = [];
  const delivered: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const r = await read();
    times.push(performance.now() - t0);
    if (r.status !== 200) throw new Error(`report: ${r.status} ${JSON.stringify(r.body)}`);
    delivered.push(r.body.counts.delivered);
    if (gapMs > 0) await sleep(gapMs);
  }
  const sorted = Float64Array.from(times).sort();
  return { p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), max: quantile(sorted, 1), delivered };
}

/** VmRSS and VmHWM (peak) of a process, in kB. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: field("VmRSS"), peak: field("VmHWM") };
}

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const value = await probe();
    if (value !== undefined) return value;
    await sleep(100);
  }
  throw new Error(`Timed out waiting for ${what}`);
}

const dir = await Deno.makeTempDir({ prefix: "balcao-campaign-bench-" });
const kvPath = `${dir}/bench.kv`;
const server = await spawnServer({
  kvPath,
  dataDir: `${dir}/media`,
  env: { ...PRODUCTION_ENV, BALCAO_CAMPAIGN_TIME_SCALE: "0", ...(PRODUCTION_V8_FLAGS ? { DENO_V8_FLAGS: PRODUCTION_V8_FLAGS } : {}) },
  timeoutMs: 120_000,
});
try {
  const pid = server.process.pid;
  const { client: admin, userId: adminId } = await loginAt(server.url);
  console.log(`${CONTACTS.toLocaleString("en")} contacts, 2 simulator connections, pacing 0; load average ${Deno.loadavg().map((l) => l.toFixed(1)).join(" ")}`);

  // The two connections: the demo's and a second one, paired.
  const first = (await admin.get("/whatsapp")).body.find((w: { name: string }) => w.name === "WhatsApp Demo");
  const companyId: number = first.companyId;
  const created = await admin.post("/whatsapp", { name: "Bench 2" });
  if (created.status !== 200) throw new Error(`POST /whatsapp: ${created.status} ${JSON.stringify(created.body)}`);
  const second = created.body;
  await admin.post(`/simulator/${second.id}/scan`);
  await until(async () => (await admin.get(`/whatsapp/${second.id}`)).body.status === "CONNECTED" || undefined, 30_000, "the second connection");

  // The contact list, seeded into the store's file beside the running server.
  const seedKv = await Deno.openKv(kvPath);
  const numbers = await seedContactList(seedKv, companyId, LIST_ID, CONTACTS);
  seedKv.close();

  // The live conversation: a customer writes on the first connection, the admin accepts.
  await admin.post(`/simulator/${first.id}/inbound`, { from: CUSTOMER, name: "Cliente ao vivo", body: "Olá, preciso de ajuda" });
  const ticket = await until(async () => {
    const list = (await admin.get("/tickets?status=pending&showAll=true&limit=1000")).body.tickets as Array<{ id: number; contact?: { number: string } }>;
    return list.find((t) => t.contact?.number === CUSTOMER);
  }, 30_000, "the live ticket");
  const accepted = await admin.put(`/tickets/${ticket.id}`, { status: "open", userId: adminId });
  if (accepted.status !== 200) throw new Error(`accept: ${accepted.status} ${JSON.stringify(accepted.body)}`);

  const campaign = await admin.post("/campaigns", {
    name: "Bench",
    contactListId: LIST_ID,
    whatsappIds: [first.id, second.id],
    scheduledAt: new Date(Date.now() + 500).toISOString(),
    message1: "Oferta para {nome}",
    message2: "Promo {primeiroNome}, só hoje",
  });
  if (campaign.status !== 200) throw new Error(`POST /campaigns: ${campaign.status} ${JSON.stringify(campaign.body)}`);
  const id = campaign.body.id;

  // While it runs: RSS and status once a second, replies every 100 ms.
  let finished = false;
  let timedOut = false;
  let lastRss = 0;
  let sampledPeak = 0;
  const watching = (async () => {
    const end = Date.now() + CAMPAIGN_BUDGET_MS;
    while (!finished) {
      lastRss = memoryOf(pid).rss;
      sampledPeak = Math.max(sampledPeak, lastRss);
      const status = (await admin.get(`/campaigns/${id}`)).body.status;
      if (status === "FINALIZADA") finished = true;
      else if (Date.now() > end) finished = timedOut = true;
      else await sleep(1000);
    }
  })();
  // The report's first page read live while it runs (as the page does), once rows exist.
  const readReport = (q = "") => admin.get(`/campaigns/${id}/report${q}`);
  const liveReads = (async () => {
    await until(async () => finished || (await readReport()).body.counts.delivered >= 500 || undefined, CAMPAIGN_BUDGET_MS, "the first rows");
    return { load: load(), ...await timeReports(readReport, 50, 100) };
  })();
  const headers = { authorization: `Bearer ${admin.token}`, "content-type": "application/json" };
  const connections = await Promise.all(
    Array.from({ length: REPLY_CONNECTIONS }, () => HttpConnection.open(new URL(server.url).hostname, Number(new URL(server.url).port))),
  );
  const sentAt = new Map<number, number>();
  const answers: number[] = [];
  let refused = 0;
  let replies = 0;
  while (!finished) {
    const base = replies;
    const roundStart = Date.now();
    const round = await drive(REPLY_ROUND, REPLY_CONNECTIONS, async (k, worker) => {
      const n = base + k;
      sentAt.set(n, roundStart + k * REPLY_EVERY_MS); // its due time, as drive counts
      const reply = await connections[worker].request("POST", `/messages/${ticket.id}`, headers, JSON.stringify({ body: `Resposta ${n}` }));
      if (reply.status !== 200) refused++;
    }, 1000 / REPLY_EVERY_MS);
    answers.push(...round.latencies);
    replies += REPLY_ROUND;
  }
  await watching;
  for (const c of connections) c.close();
  const live = await liveReads;
  const loadAfter = load();
  const ended = await timeReports(readReport, 50, 0);
  const middle = await timeReports(() => readReport("?pageNumber=100"), 20, 0);
  const filtered = await timeReports(() => readReport("?status=delivered&pageNumber=100"), 20, 0);

  // What the phones received.
  const outbox = async (whatsappId: number) => (await admin.get(`/simulator/${whatsappId}/outbox`)).body.messages as OutboxEntry[];
  const received = [...await outbox(first.id), ...await outbox(second.id)];
  const sends = received.filter((m) => CAMPAIGN_TEXT.test(m.body)).map((m) => m.timestamp).sort((a, b) => a - b);
  const perNumber = new Map<string, number>();
  for (const m of received) if (CAMPAIGN_TEXT.test(m.body)) perNumber.set(m.to, (perNumber.get(m.to) ?? 0) + 1);
  const twice = [...perNumber.values()].filter((n) => n > 1).length;
  const onPhone: number[] = [];
  for (const m of received) {
    const n = /Resposta (\d+)$/.exec(m.body);
    if (n && sentAt.has(Number(n[1]))) onPhone.push(m.timestamp - sentAt.get(Number(n[1]))!);
  }
  onPhone.sort((a, b) => a - b);
  const report = (await admin.get(`/campaigns/${id}/report`)).body;

  const span = sends.length > 1 ? (sends[sends.length - 1] - sends[0]) / 1000 : 0;
  const seconds = new Map<number, number>();
  for (const t of sends) {
    const s = Math.floor((t - sends[0]) / 1000);
    seconds.set(s, (seconds.get(s) ?? 0) + 1);
  }
  // Whole seconds only: the last one is partial.
  const perSecond = [...seconds].filter(([s]) => s < Math.floor(span)).map(([, n]) => n).sort((a, b) => a - b);
  console.log(
    `campaign: ${sends.length.toLocaleString("en")} messages in ${span.toFixed(1)} s: ${(sends.length / span).toFixed(0)} messages/s sustained; ` +
      `per whole second: median ${perSecond[Math.floor(perSecond.length / 2)] ?? 0}, slowest ${perSecond[0] ?? 0}, fastest ${perSecond.at(-1) ?? 0}` +
      (timedOut ? ` (NOT FINISHED within ${CAMPAIGN_BUDGET_MS / 1000} s)` : ""),
  );
  const answered = Float64Array.from(answers).sort();
  console.log(
    `live replies: ${answered.length} at ${1000 / REPLY_EVERY_MS}/s, refused ${refused}; HTTP answer p50 ${ms(quantile(answered, 0.5))}, ` +
      `p99 ${ms(quantile(answered, 0.99))}, max ${ms(quantile(answered, 1))}; on the phone p50 ${onPhone[Math.floor(onPhone.length * 0.5)] ?? "-"} ms, ` +
      `p99 ${onPhone[Math.min(onPhone.length - 1, Math.floor(onPhone.length * 0.99))] ?? "-"} ms, max ${onPhone.at(-1) ?? "-"} ms ` +
      `(${onPhone.length} received; goal p99 ≤ 100 ms)`,
  );
  const f = (r: { p50: number; p99: number; max: number }) => `p50 ${ms(r.p50)}, p99 ${ms(r.p99)}, max ${ms(r.max)}`;
  console.log(
    `report reads: while it runs (50, delivered ${live.delivered[0].toLocaleString("en")} → ${live.delivered.at(-1)!.toLocaleString("en")}, load ${live.load}) ${f(live)}; ` +
      `after it ended (50, load ${loadAfter}) ${f(ended)}; page 100 (20) ${f(middle)}; status=delivered page 100 (20) ${f(filtered)}`,
  );
  const memory = memoryOf(pid);
  // VmHWM lags the kernel's per-thread counters a little: the sampled maximum bounds it too.
  console.log(`server RSS: peak ${mb(Math.max(memory.peak, sampledPeak))}, ${mb(lastRss)} at the end of the campaign`);

  await server.kill();
  const kv = await Deno.openKv(kvPath);
  let ledger = 0;
  let repeats = 0;
  for (const whatsappId of [first.id, second.id]) {
    for await (const e of kv.list<SimulatorLedgerEntry>({ prefix: ["simulator_ledger", companyId, whatsappId] })) {
      if (!String(e.key[3]).startsWith(`cmp-${companyId}-${id}-`)) continue;
      ledger++;
      repeats += e.value.repeats;
    }
  }
  kv.close();
  const missing = numbers.filter((n) => !perNumber.has(n)).length;
  console.log(
    `final: report delivered ${report.counts.delivered.toLocaleString("en")} of ${CONTACTS.toLocaleString("en")} (failed ${report.counts.failed}), ` +
      `outboxes ${sends.length.toLocaleString("en")}, ledger ${ledger.toLocaleString("en")}; numbers missing ${missing}, ` +
      `numbers with more than one message ${twice}, re-sends recognised ${repeats}`,
  );
  if (report.counts.delivered !== CONTACTS || sends.length !== CONTACTS || twice > 0 || missing > 0) {
    console.log("FAILED: delivered must equal the contacts, with no duplicates");
    Deno.exitCode = 1;
  }
} finally {
  await server.kill();
  await Deno.remove(dir, { recursive: true }).catch(() => {});
}
