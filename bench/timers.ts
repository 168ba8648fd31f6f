/**
 * The ticket desk's durable timers at volume (issue #17): 100,000 active tickets of one
 * company, each with its timer armed through the product's own path (the desk's `create` +
 * `note` arm an open ticket's auto-close, `inbound` arms a new pending ticket's auto-move),
 * 10,000 of them due within one minute and 90,000 hours away. Prints:
 * - the firing delay of the 10,000 (the automatic change's event, published after its commit,
 *   minus the due time): p50, p99, max, and how many fired early (must be 0);
 * - duplicates: automatic changes performed more than once for one ticket (goal 0), and near
 *   tickets that never fired;
 * - KV rows per armed timer: the timer wheel's entry key and the queue messages (read from the
 *   store's SQLite tables: the desk's one runtime timer), and what 10,000 more company messages
 *   on armed tickets add (the lazy re-arm: nothing);
 * - first, for scale, how fast this machine's KV delivers plain queue messages (why the desk
 *   keeps its timers on a wheel, actors/_runtime/timer_wheel.ts, not one queue message each);
 * - RSS after arming and at the end, and the desk's reactivation time with 100,000 tickets
 *   and timers (a restart's cost).
 *
 * The bench minute is 12 s (the ports' minuteMs, what tests shorten too): the near timers are
 * auto-close after 5 minutes (60 s) and auto-move after 5 minutes (60 s), armed evenly over
 * one minute, so they come due over one minute while the desk keeps taking new arms; the far
 * ones are 600-minute auto-closes and 60-minute auto-moves. File-backed KV in a temporary
 * folder, production V8 flags, host ports stubbed (no channel: the close message is not sent).
 *
 * Run: `deno task bench timers` or `deno run -A bench/timers.ts [near] [far]`.
 */
import { DatabaseSync } from "node:sqlite";
import { ActorSystem } from "../actors/_runtime/system.ts";
import { deskOf, deskState } from "../actors/tickets/mod.ts";
import { bindTicketPorts } from "../actors/tickets/ports.ts";
import { TICK_HANDLER } from "../actors/tickets/timers.ts";
import { loadWheel } from "../actors/_runtime/timer_wheel.ts";
import { queues } from "../actors/queues/collection.ts";
import { whatsapps } from "../actors/whatsapps/collection.ts";
import { DEFAULT_LUNCH, DEFAULT_SCHEDULES, type Queue } from "../domain/queue.ts";
import type { Principal } from "../domain/permissions.ts";
import { newWhatsapp } from "../domain/whatsapp.ts";
import { registerActors } from "../server/boot.ts";
import { withProductionFlags } from "./lib/v8_flags.ts";

await withProductionFlags(import.meta.filename!);

const NEAR = Number(Deno.args[0] ?? 10_000);
const FAR = Number(Deno.args[1] ?? 90_000);
const MINUTE = 12_000;
const NEAR_SPREAD_MS = 60_000;
const COMPANY = 1;
const IN_FLIGHT = 64;

const mb = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MB`;
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

/** Runs `task(i)` for i in [0, n) with at most IN_FLIGHT at once. */
async function pool(n: number, task: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
    while (next < n) await task(next++);
  }));
}

const dir = await Deno.makeTempDir({ prefix: "timers_bench_" });

/** Plain KV queue throughput: `n` messages all due at once, a handler that does nothing. */
async function queueRate(n: number): Promise<number> {
  const probe = await Deno.openKv(`${dir}/queue_probe.kv`);
  for (let i = 0; i < n; i += 500) {
    const op = probe.atomic();
    for (let j = i; j < Math.min(n, i + 500); j++) op.enqueue({ j }, { delay: 1000 });
    await op.commit();
  }
  const start = Date.now() + 1000;
  let seen = 0;
  const all = Promise.withResolvers<void>();
  const listening = probe.listenQueue(() => {
    if (++seen === n) all.resolve();
  });
  await all.promise;
  const rate = n / ((Date.now() - start) / 1000);
  probe.close();
  await listening.catch(() => {});
  return rate;
}
console.log(`plain KV queue: ${Math.round(await queueRate(2000))} messages/s delivered (2,000 due at once)`);

const path = `${dir}/bench.kv`;
let kv = await Deno.openKv(path);
let system = new ActorSystem(kv);
registerActors(system);

/** When each near ticket's automatic change is due, set as it is armed. */
const dueOf = new Map<number, { type: "autoClose" | "autoMove"; due: number }>();
/** What the desk published: per ticket, each automatic change's time (its event follows its commit). */
const fired = new Map<number, { type: string; due: number; at: number }[]>();
function stubPorts(target: ActorSystem) {
  bindTicketPorts(target, { minuteMs: MINUTE, onlineUserIds: () => [], effects: () => Promise.resolve() });
  target.bus.subscribe((event) => {
    const data = event.data as { action?: string; ticket?: { id: number; status: string } };
    const closed = data.action === "update" && data.ticket?.status === "closed";
    if (!closed && data.action !== "moved-to-queue") return;
    const expected = data.ticket && dueOf.get(data.ticket.id);
    if (!expected) return;
    const list = fired.get(data.ticket!.id) ?? [];
    list.push({ type: expected.type, due: expected.due, at: Date.now() });
    fired.set(data.ticket!.id, list);
  });
}
stubPorts(system);

// The company's two queues and two connections (near and far intervals).
const queueOf = (name: string, color: string) =>
  queues.in(system, COMPANY).create((id, now): Queue => ({
    id, companyId: COMPANY, name, color, prioridade: id, greetingMessage: "", outOfHoursMessage: "",
    tempoRoteador: 0, ativarRoteador: false, isChatbot: false, typeChatbot: "", n8n: "", n8nId: "",
    workspaceTypebot: "", typebotId: "", resetChatbotMsg: false, schedules: DEFAULT_SCHEDULES,
    lunchHour: DEFAULT_LUNCH, createdAt: now, updatedAt: now,
  }));
const inbox = await queueOf("Entrada", "#2563eb");
const transfer = await queueOf("Transbordo", "#16a34a");
const connOf = (name: string, inatividade: number, selectedInterval: number) =>
  whatsapps.in(system, COMPANY).create((id, now) =>
    newWhatsapp(id, COMPANY, now, {
      name, inatividade, selectedInterval, selectedMoveQueueId: transfer.id, closeMessage: "Encerrado",
      queueIds: [inbox.id],
    })
  );
const near = await connOf("Perto", 5, 5);
const far = await connOf("Longe", 600, 60);

const admin: Principal = { id: 1, companyId: COMPANY, profile: "admin", super: false, queueIds: [] };
const desk = deskOf(system, COMPANY);
let contact = 0;
const openTickets: number[] = [];

/** An open ticket whose agent wrote last: its auto-close is armed by the note. */
async function armClose(whatsappId: number): Promise<void> {
  const t = await desk.ask("create", {
    contactId: ++contact, whatsappId, queueId: inbox.id, userId: 1, status: "open",
    isGroup: false, channel: "whatsapp", who: admin, settings: {},
  });
  const at = Date.now();
  await desk.ask("note", { id: t.id, preview: "Posso ajudar em algo mais?", fromMe: true, at, unread: false });
  if (whatsappId === far.id) openTickets.push(t.id);
  else dueOf.set(t.id, { type: "autoClose", due: at + 5 * MINUTE });
}

/** A new pending ticket of a customer: its auto-move is armed by its creation. */
async function armMove(whatsappId: number): Promise<void> {
  const { ticket } = await desk.ask("inbound", { contactId: ++contact, whatsappId, queueId: inbox.id, isGroup: false, channel: "whatsapp" });
  if (whatsappId === near.id) dueOf.set(ticket.id, { type: "autoMove", due: ticket.createdAt + 5 * MINUTE });
}

await desk.peek();
let started = performance.now();
await pool(FAR, (i) => i % 2 === 0 ? armClose(far.id) : armMove(far.id));
const farSeconds = (performance.now() - started) / 1000;
console.log(`armed ${FAR.toLocaleString("en")} far timers in ${farSeconds.toFixed(1)} s (${Math.round(FAR / farSeconds)} tickets/s)`);

/** Rows of the store's SQLite tables: timer keys are counted with a KV list. */
function queueRows(): number {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const row = db.prepare("select (select count(*) from queue) + (select count(*) from queue_running) as n").get() as { n: number };
    return row.n;
  } finally {
    db.close();
  }
}
const count = async (prefix: Deno.KvKey) => (await Array.fromAsync(kv.list({ prefix }))).length;
const timerKeys = () => count(["timer_wheel", "ticket-desk", String(COMPANY)]);
const armed = await timerKeys(); // the far ones: none has fired yet
const runtimeTimers = await count(["timer", COMPANY, "ticket-desk", String(COMPANY)]);
const messagesQueued = queueRows();
console.log(
  `KV per armed timer: ${(armed / FAR).toFixed(2)} wheel key + ${(messagesQueued / armed).toFixed(5)} queue message ` +
    `(${armed.toLocaleString("en")} wheel keys, ${runtimeTimers} runtime timer, ${messagesQueued} queue rows; all armed, none fired)`,
);

// Lazy re-arm: more company messages on armed open tickets write no timer.
const extra = Math.min(10_000, openTickets.length);
await pool(extra, (i) => desk.ask("note", { id: openTickets[i], preview: "Ainda está aí?", fromMe: true, at: Date.now(), unread: false }));
console.log(`${extra.toLocaleString("en")} more company messages on armed tickets added ${queueRows() - messagesQueued} queue rows and ${(await timerKeys()) - armed} timer keys`);

// The near ones, evenly over one minute (so they come due over one minute).
started = performance.now();
const nearStart = Date.now();
await pool(NEAR, async (i) => {
  const wait = nearStart + (i / NEAR) * NEAR_SPREAD_MS - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  await (i % 2 === 0 ? armClose(near.id) : armMove(near.id));
});
const rssArmed = Deno.memoryUsage().rss;
console.log(`armed ${NEAR.toLocaleString("en")} near timers over ${((performance.now() - started) / 1000).toFixed(1)} s`);

// Wait for the near timers: all due by nearStart + 60 s + 5 minutes of the bench.
const lastDue = nearStart + NEAR_SPREAD_MS + 5 * MINUTE;
const nearFired = () => [...fired.values()].filter((list) => list.length > 0).length;
while (nearFired() < NEAR && Date.now() < lastDue + 60_000) {
  await new Promise((resolve) => setTimeout(resolve, 250));
}
await new Promise((resolve) => setTimeout(resolve, 3000)); // room for late duplicates

const delays: number[] = [];
let duplicates = 0;
let early = 0;
for (const list of fired.values()) {
  duplicates += list.length - 1;
  const first = list[0];
  delays.push(first.at - first.due);
  if (first.at < first.due) early++;
}
delays.sort((a, b) => a - b);
const byType = (type: string) => [...fired.values()].filter((l) => l[0].type === type).length;
console.log(
  `fired ${delays.length.toLocaleString("en")} of ${NEAR.toLocaleString("en")} near timers ` +
    `(${byType("autoClose")} auto-close, ${byType("autoMove")} auto-move); delay after due: ` +
    `p50 ${pct(delays, 0.5)} ms, p99 ${pct(delays, 0.99)} ms, max ${delays.at(-1)} ms; early: ${early}`,
);
console.log(`duplicates: ${duplicates}; never fired: ${NEAR - delays.length}`);
console.log(`RSS: ${mb(rssArmed)} with ${(NEAR + FAR).toLocaleString("en")} armed, ${mb(Deno.memoryUsage().rss)} at the end`);

// A restart's cost: the desk reactivates with every ticket and every armed timer.
await system.close();
kv.close();
await system.listening.catch(() => {});
kv = await Deno.openKv(path);
system = new ActorSystem(kv);
registerActors(system);
stubPorts(system);
started = performance.now();
const wheel = await loadWheel(kv, "ticket-desk", String(COMPANY), TICK_HANDLER);
const wheelSeconds = (performance.now() - started) / 1000;
started = performance.now();
const state = await deskState(system, COMPANY);
console.log(
  `desk reactivation: ${state.index.size.toLocaleString("en")} tickets and ${(await timerKeys()).toLocaleString("en")} armed timers ` +
    `in ${((performance.now() - started) / 1000).toFixed(2)} s (reading the ${wheel.size.toLocaleString("en")} wheel entries alone: ${wheelSeconds.toFixed(2)} s)`,
);
await system.close();
kv.close();
await system.listening.catch(() => {});
await Deno.remove(dir, { recursive: true });
