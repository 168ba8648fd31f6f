/**
 * What stays in memory per ticket, contact and message (issue #23 §3): seeds the inbox
 * benchmark's store (bench/lib/inbox_store.ts; `--scale=N` multiplies its 50,000 contacts,
 * 100,000 tickets and 1,000,000 messages), starts the server on it in this process, waits
 * for the background builds, and then drops the resident indexes one at a time, collecting
 * garbage after each: what a drop frees is what that index held. Prints bytes per record of
 * each and the process's RSS.
 *
 *   deno run -A bench/resident.ts [--scale=1] [--reuse=dir]
 *
 * Resident today (read models that answer without KV): the ticket desk (every ticket record
 * with its sorted lists, maps by contact, tag and uuid, the report's columns), the contacts
 * collection, the message-search postings and vocabulary, and the provider-id index (typed
 * arrays outside V8's heap). Messages themselves are not resident: a ticket's messages are
 * read from KV by its actor when opened and dropped when it goes idle.
 */
import type { ActorSystem } from "../actors/_runtime/system.ts";
import { providerIndex } from "../actors/messages/context.ts";
import { messageSearch } from "../actors/messages/search_index.ts";
import { companies, PLATFORM } from "../actors/platform/collections.ts";
import { startServer } from "../server/start.ts";
import { inboxStore } from "./lib/inbox_store.ts";
import { backgroundBuilt, loadAverage } from "./lib/settled.ts";
import { exposedGc, PRODUCTION_V8_FLAGS } from "./lib/v8_flags.ts";

// The measurement needs a collection on demand.
const gc = await exposedGc(import.meta.filename!, PRODUCTION_V8_FLAGS);

const scale = Number(Deno.args.find((a) => a.startsWith("--scale="))?.split("=")[1] ?? 1);
const reuse = Deno.args.find((a) => a.startsWith("--reuse="))?.slice("--reuse=".length);
const plan = {
  contacts: 50_000 * scale,
  tickets: 100_000 * scale,
  messages: 1_000_000 * scale,
  bigTicketMessages: 200,
  searchWord: "reembolso",
};

/** Heap plus memory outside it (typed arrays), after collecting everything collectable. */
function used(): number {
  for (let i = 0; i < 3; i++) gc!();
  const m = Deno.memoryUsage();
  return m.heapUsed + m.external;
}

/** Bytes a provider id takes in its index (24 in typed arrays and 4-8 of hash slots). */
const PROVIDER_BYTES = 32;

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

async function providerBuilt(system: ActorSystem, companyId: number): Promise<void> {
  while (!providerIndex(system).ready(companyId)) await new Promise((r) => setTimeout(r, 200));
}

const store = await inboxStore(plan, { reuse, password: "demo1234", secret: "bench-secret" });
console.log(`store: ${plan.tickets} tickets, ${plan.contacts} contacts, ${plan.messages} messages` +
  (store.seedSeconds ? `, seeded in ${store.seedSeconds.toFixed(1)} s` : " (reused)"));
const started = performance.now();
const server = await startServer({
  kvPath: store.kvPath, dataDir: store.dataDir, port: 0, demo: false, passwordHash: "fast", secret: "bench-secret",
});
const system = server.deps.system;
const ids = (await companies.in(system, PLATFORM).list()).map((c) => c.id);
console.log(`server started in ${((performance.now() - started) / 1000).toFixed(2)} s; background builds took ${(await backgroundBuilt(system)).toFixed(1)} s more`);
for (const id of ids) await providerBuilt(system, id);

const rss = Deno.memoryUsage().rss;
const total = used();
const provider = ids.reduce((sum, id) => sum + providerIndex(system).size(id).bytes, 0);
const steps: Array<[string, () => void, number, string]> = [
  ["message search (postings + vocabulary)", () => ids.forEach((id) => messageSearch(system).drop(id)), plan.messages, "message"],
  ["provider-id index (typed arrays)", () => ids.forEach((id) => providerIndex(system).drop(id)), plan.messages, "message"],
  ["ticket desk (records, lists, columns)", () => system.evictWhere((kind) => kind === "ticket-desk"), plan.tickets, "ticket"],
  ["contacts", () => system.evictWhere((kind) => kind === "contacts"), plan.contacts, "contact"],
];
const heap = Deno.memoryUsage();
console.log(`\nresident after start (load ${await loadAverage()}): heap + external ${mb(total)}, RSS ${mb(rss)}`);
// What V8 holds beyond the live heap (freed old-space pages it keeps, the young generation)
// against what is outside V8 (KV's SQLite cache, the allocator's arenas).
console.log(`  V8 heap reserved ${mb(heap.heapTotal)} for ${mb(heap.heapUsed)} live; outside V8's heap: ${mb(rss - heap.heapTotal - heap.external)} + ${mb(heap.external)} external`);
let before = total;
for (const [name, drop, records, unit] of steps) {
  drop();
  const after = used();
  const freed = before - after;
  console.log(`  ${name.padEnd(42)} ${mb(freed).padStart(9)}  ${(freed / records).toFixed(0).padStart(5)} bytes per ${unit}`);
  before = after;
}
console.log(`  ${"everything else (runtime, code, small actors)".padEnd(42)} ${mb(before).padStart(9)}`);
console.log(`  (provider index's own count of its arrays: ${mb(provider)}; the seed's messages carry no provider id,`);
console.log(`   a real store's carry one each, at ~${PROVIDER_BYTES} bytes an id: actors/messages/provider_index.ts)`);
const tenfold = (total - before) * 10 / scale + before + PROVIDER_BYTES * plan.messages * 10 / scale;
const target = scale === 10 ? "at this volume" : "at ten times this volume";
console.log(`\n${target}, with provider ids, the same bytes per record come to ${mb(tenfold)} of heap and arrays`);
console.log(`(the goal is ≤ 2 GB RSS; RSS here is ${mb(rss - total)} above heap and arrays: young generation, KV's page cache, allocator)`);
await server.close();
if (!reuse) await Deno.remove(store.dir, { recursive: true }).catch(() => {});
