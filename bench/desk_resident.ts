/**
 * The ticket desk alone at a seeded store's volume (issue #23 §3), without starting the server
 * or waiting for its background builds (bench/resident.ts does both, which at 10M messages
 * takes many minutes): lists the company's tickets from KV as the desk's activation does,
 * builds the TicketIndex, and prints the time of each step and the bytes per ticket of the
 * records and of the indexes over them, after collecting garbage.
 *
 *   deno run -A --v8-flags=--expose-gc bench/desk_resident.ts <path/to/bench.kv> [companyId=2]
 */
import { companyTicketsPrefix } from "../actors/tickets/keys.ts";
import { TicketIndex } from "../actors/tickets/index.ts";
import { residentTicket, type Ticket } from "../domain/ticket.ts";
import { loadAverage } from "./lib/settled.ts";

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc || !Deno.args[0]) {
  console.error("usage: deno run -A --v8-flags=--expose-gc bench/desk_resident.ts <kvPath> [companyId]");
  Deno.exit(2);
}
/** Heap plus memory outside it (typed arrays), after collecting everything collectable. */
function used(): number {
  for (let i = 0; i < 3; i++) gc!();
  const m = Deno.memoryUsage();
  return m.heapUsed + m.external;
}

const kv = await Deno.openKv(Deno.args[0]);
const companyId = Number(Deno.args[1] ?? 2);
const base = used();
const listed = performance.now();
let records: Ticket[] = [];
for await (const entry of kv.list<Ticket>({ prefix: companyTicketsPrefix(companyId) }, { batchSize: 1000 })) {
  records.push(residentTicket(entry.value));
}
const indexed = performance.now();
const n = records.length;
const afterRecords = used();
const index = new TicketIndex();
index.loadAll(records);
const done = performance.now();
records = [];
const afterIndex = used();
kv.close();
const per = (bytes: number) => `${(bytes / n).toFixed(0)} B/ticket`;
console.log(`${n} tickets (load ${await loadAverage()}): listed and revived in ${((indexed - listed) / 1000).toFixed(1)} s, indexed in ${((done - indexed) / 1000).toFixed(1)} s`);
console.log(`  records ${per(afterRecords - base)}, indexes ${per(afterIndex - afterRecords)}, desk ${per(afterIndex - base)} = ${((afterIndex - base) / 2 ** 20).toFixed(0)} MB; process RSS ${(Deno.memoryUsage().rss / 2 ** 20).toFixed(0)} MB (index holds ${index.size})`);
