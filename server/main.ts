/**
 * `npm start`: runs the product and prints where to log in.
 *
 * deno.json's start task gives V8 four flags, measured with bench/inbox.ts and bench/ingest.ts
 * (which run their server with the same ones, bench/lib/v8_flags.ts):
 * - `--max-semi-space-size=64`: a 64 MB young generation; fewer scavenges cut the inbox p99s
 *   about threefold (worst list 55.7 → 15.5 ms, messages page 57.0 → 18.8 ms).
 * - `--heap-growing-percent=50`: the old generation may grow 1.5× its live size before a full
 *   collection instead of V8's up to 4×; garbage promoted under load (and by the first search's
 *   pass over a million messages) no longer piles up: RSS after the bench 511–697 → 416–424 MB,
 *   peak 730–744 → 459–480 MB.
 * - `--initial-old-space-size=256`, measured with bench/ingest.ts: no full collection before
 *   the old generation holds 256 MB (above that, the 1.5× rule). At 10,000 inbound messages/s
 *   the path promotes about 5 MB/s of short-lived garbage (ticket snapshots that live until
 *   the conversation's next message, events), and with a live heap of ~65 MB the 1.5× limit
 *   meant a full collection every ~3 s, each stalling the path for 50–100 ms: 4–6 in the
 *   10-second open loop, now 1, and its p99 62–81 → 22–50 ms. bench/inbox (four runs each
 *   way): RSS peak 494–503 vs 487–520 MB, worst closed list p99 8.9–11.1 vs 8.0–10.2 ms.
 * - `--no-allocation-site-pretenuring`, measured with bench/inbox.ts at 10×: V8 allocates an
 *   object straight in the old generation when most objects from its allocation site survived
 *   recent scavenges. A start's index builds made it decide so for sites the request path
 *   shares, and afterwards every list call left ~2–3 KB in the old generation (it grew 1.5 MB
 *   a scavenge, 738 → 1,112 MB in 50 s) until a mark-compact of the whole heap: 1.1–1.7 s of
 *   incremental marking with steps of 35–108 ms, 1.2–1.7 s p99 in the open-loop cell it fell
 *   in, 89 ms in a closed one. Without it the old generation stays flat (748.0 → 748.8 MB
 *   over a minute of calls), scavenges take ≤ 4 ms instead of 6–8, every open-loop cell's p99
 *   is 3.5–4.5 ms, closed-loop capacity rises from 4,356–4,846 to 6,899 req/s, and the first
 *   10 s of searches after a start have p99 26–67 ms instead of 87–585 (three runs each
 *   way). At 1× nothing got worse (open-loop p99s 3.4–4.4 ms; capacity 6,972–7,216 req/s,
 *   was 4,747–5,920). Its cost is on the inbound path, whose ticket snapshots do live until
 *   the next message: bench/ingest.ts, five runs each way, interleaved, median 512-cell
 *   throughput 6,344 vs 7,210 msg/s (each side's runs spread ±25 %) and process CPU +3 %.
 *
 * and sets `DENO_TOKIO_EVENT_INTERVAL=1` (read by Deno when it builds its runtime, so it
 * cannot be set from here). Deno's scheduler checks the sockets once every that many task
 * polls (61 by default), and the JavaScript event loop is one of the tasks. While background
 * work runs in slices (an index loading after a start, actors/_runtime/slices.ts), each turn
 * of the loop took ~20 ms and the next one was always due, so a request's bytes sat unread
 * for 61 turns: 1.1–2.1 s, seen with `perf trace` as no `epoll_wait` on the main thread for
 * that long while timers kept firing. Searches in the first 10 s after a 10× restart: p99
 * 663–1,480 ms in 7 of 8 starts without it, 97–425 ms with it (8 of 8 under 0.5 s);
 * intervals of 4 and 8 left 115–1,075 ms. The cost, measured with bench/cold_start.ts at 10×
 * (six starts each way, interleaved): spawn to first list 8.7–9.6 s at 61, 9.2–10.7 s at 1.
 * A request waiting seconds behind any background work (a snapshot or an index being saved
 * also runs in slices) weighs more than 0.7 s on a start.
 *
 * It also sets `NODE_ENV=production`, which React's packages read when they load: without
 * it the pages were rendered by React's development builds, which check every element. Served
 * 300 times each, twice each way: `/login` 2.9 ms a page → 1.6 ms, `/signup` 2.2–2.5 →
 * 1.4–1.6 ms. The islands' bundles are built for production already (server/islands/build.ts).
 * Tests run without it, so React's warnings show there.
 */
import { isLoopback } from "./config.ts";
import { startServer } from "./start.ts";
import { seedDemoConversations } from "./seed/demo_conversations.ts";
import { log } from "../actors/_runtime/log.ts";

const server = await startServer();
const port = server.port;
const { config } = server.deps;
const local = isLoopback(config.hostname);
const anyAddress = config.hostname === "0.0.0.0" || config.hostname === "::";
const shown = local || anyAddress ? "localhost" : config.hostname.includes(":") ? `[${config.hostname}]` : config.hostname;
// performance.now() counts from the process's start: module loading, the store, the demo.
log.info(`Balcão is running at http://${shown}:${port}${local ? "" : ` (listening on ${config.hostname})`} (started in ${Math.round(performance.now())} ms)`);
if (server.owner.kind === "created") log.info(`Platform owner created: ${server.owner.email} (password from BALCAO_OWNER_PASSWORD)`);
if (server.owner.kind === "missing") {
  log.info(
    "No platform owner yet: set BALCAO_OWNER_EMAIL and BALCAO_OWNER_PASSWORD and start again to create it" +
      (local ? " (or start on an empty store to try the demo)" : ""),
  );
}
if (server.demo) {
  log.info(`Demo logins (password: ${config.demoPassword}):`);
  for (const login of server.demo.logins) log.info(`  ${login.email.padEnd(24)} ${login.role}`);
  if (server.history) {
    // Whole days: the history starts at a midnight thirty days back, so the span also holds
    // today's hours so far (rounded, a start after noon said 31).
    const days = Math.floor((server.history.to - server.history.from) / 86_400_000);
    log.info(`Demo history: ${server.history.conversations} conversations over the last ${days} days (played in ${server.history.ms} ms)`);
  }
  await seedDemoConversations(server.deps, server.demo.companyId);
  log.info(`Simulated customers' phone: http://localhost:${port}/simulator (log in as admin first)`);
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.addSignalListener(signal, async () => {
    await server.close();
    Deno.exit(0);
  });
}
