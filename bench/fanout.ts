/**
 * Fan-out benchmark of the realtime hub (issue #5). Run: `deno run -A bench/fanout.ts`.
 *
 * The server runs in a child process (this same file with `--server`): a real `startServer`
 * with an in-memory store, one big company and five small ones, users created through the
 * platform commands. Ticket events are published in that process straight onto the bus, as
 * a ticket actor would after its commit, at a steady rate; that costs the server nothing an
 * actor would not. This process opens the client sockets, records the publish→receipt
 * latency of every frame (publish time travels in the event), and checks each socket got
 * exactly the events domain/visibility.ts allows it: a missing one is dropped, an extra one
 * misrouted. Clients and server share the machine's cores, as on a 2-core box, so the
 * clients are a minimal WebSocket over raw TCP (bench/lib/ws_client.ts), a little cheaper
 * than Deno's `WebSocket` class (FANOUT_CLIENT=deno): 7.9–8.3 against 8.2–9.1 µs per frame,
 * most of which is the kernel and JSON.parse.
 *
 * Options (env): FANOUT_EVENTS (10000), FANOUT_RATE (2000 events/s), FANOUT_SOCKETS (1000),
 * FANOUT_OTHER (100), FANOUT_QUEUES (30), FANOUT_FORMAT (json | msgpack), FANOUT_PROFILE (a
 * folder: write a CPU profile of the server process there), FANOUT_FLUSH_MS (the hub's
 * flush window; production's by default, 0 sends every event at once), FANOUT_V8_FLAGS (the
 * server's V8 flags; production's, from deno.json's start task, by default), FANOUT_CLIENT
 * (raw | deno: Deno's `WebSocket` class for the clients instead).
 */
import { unpack } from "msgpackr";
import { cpuUsage } from "node:process";
import { type Principal } from "../domain/permissions.ts";
import { allowed } from "../server/realtime/routing.ts";
import { SETTING_DEFAULTS } from "../domain/settings.ts";
import type { EventScope } from "../domain/events.ts";
import { PRODUCTION_ENV, PRODUCTION_V8_FLAGS } from "./lib/v8_flags.ts";
import { type ClientSocket, denoWebSocket, WsClient, type WsHandlers } from "./lib/ws_client.ts";

const env = (name: string, fallback: number) => Number(Deno.env.get(name) ?? fallback);
const EVENTS = env("FANOUT_EVENTS", 10_000);
const RATE = env("FANOUT_RATE", 2_000);
const SOCKETS = env("FANOUT_SOCKETS", 1_000);
const OTHER = env("FANOUT_OTHER", 100);
const QUEUES = env("FANOUT_QUEUES", 30);
const FORMAT = Deno.env.get("FANOUT_FORMAT") === "msgpack" ? "msgpack" : "json";
const CLIENT = Deno.env.get("FANOUT_CLIENT") === "deno" ? "deno" : "raw";
const OTHER_COMPANIES = 5;

/** One socket to open: its token and who it is. */
interface SocketPlan {
  token: string;
  principal: Principal;
}

/** The ticket facts of event `i`: deterministic, so both processes know them. */
function eventFacts(i: number, plan: { mainId: number; otherIds: number[]; userIds: number[] }) {
  const other = i % 10 === 9;
  const companyId = other ? plan.otherIds[Math.floor(i / 10) % plan.otherIds.length] : plan.mainId;
  const queueId = i % 100 === 0 ? null : 1 + (i % QUEUES);
  const userId = i % 7 === 0 ? plan.userIds[i % plan.userIds.length] : null;
  const status = i % 10 === 3 ? "closed" : i % 3 === 0 ? "pending" : "open";
  const scope: EventScope = { kind: "ticket", ticketId: i + 1, queueId, userId, isGroup: i % 13 === 0, status };
  return { companyId, scope };
}

const now = () => performance.timeOrigin + performance.now();
/** CPU time of this process (user + system), ms. */
const cpuMs = () => {
  const { user, system } = cpuUsage();
  return (user + system) / 1000;
};

// ───────────────────────────── server process ─────────────────────────────

async function serverMain(): Promise<void> {
  const { startServer } = await import("../server/start.ts");
  const { createCompany, createUser } = await import("../actors/platform/commands.ts");
  const { hashPassword } = await import("../server/auth/passwords.ts");
  const { signAccess } = await import("../server/auth/tokens.ts");
  const server = await startServer({
    port: 0,
    kvPath: ":memory:",
    demo: false,
    passwordHash: "fast",
    secret: "fanout-bench",
  });
  const { system, bus } = server.deps;
  if (Deno.env.get("FANOUT_FLUSH_MS")) server.deps.hub.configure({ flushWindowMs: env("FANOUT_FLUSH_MS", 0) });
  const passwordHash = await hashPassword("bench1234", "fast");
  const dueDate = Date.now() + 30 * 86_400_000;
  const main = await createCompany(system, { name: "Main", dueDate });
  const others = [];
  for (let c = 0; c < OTHER_COMPANIES; c++) others.push(await createCompany(system, { name: `Other ${c}`, dueDate }));

  const sockets: SocketPlan[] = [];
  const addUsers = async (companyId: number, count: number, role: (n: number) => Principal["profile"]) => {
    const made = await Promise.all(Array.from({ length: count }, (_, n) =>
      createUser(system, {
        companyId,
        name: `User ${companyId}-${n}`,
        email: `u${n}@c${companyId}.bench`,
        passwordHash,
        profile: role(n),
        // Mostly one queue each, every fifth user two.
        queueIds: n % 5 === 0 ? [1 + (n % QUEUES), 1 + ((n + 7) % QUEUES)] : [1 + (n % QUEUES)],
      })));
    for (const user of made) {
      const token = await signAccess(server.deps.secret, { id: user.id, companyId, scope: "full", tokenVersion: user.tokenVersion }, 3600, Date.now());
      sockets.push({
        token,
        principal: { id: user.id, companyId, profile: user.profile, super: false, queueIds: user.queueIds },
      });
    }
    return made;
  };
  // Main company: 5 admins and 5 supervisors, the rest plain users, one socket each.
  const mainUsers = await addUsers(main.id, SOCKETS, (n) => n < 5 ? "admin" : n < 10 ? "supervisor" : "user");
  for (const other of others) {
    await addUsers(other.id, Math.ceil(OTHER / OTHER_COMPANIES), (n) => n === 0 ? "admin" : "user");
  }
  const plan = { mainId: main.id, otherIds: others.map((o) => o.id), userIds: mainUsers.map((u) => u.id) };
  console.log(JSON.stringify({ type: "ready", url: server.url, sockets, plan }));

  const lines = readLines(Deno.stdin.readable);
  for await (const line of lines) {
    if (line === "rss") {
      console.log(JSON.stringify({ type: "rss", rss: Deno.memoryUsage().rss, hub: server.deps.hub.stats() }));
    } else if (line === "cpu") {
      console.log(JSON.stringify({ type: "cpu", cpu: cpuMs() }));
    } else if (line === "go") {
      const started = now();
      let sent = 0;
      const done = Promise.withResolvers<void>();
      // Server-side time of each event: from its publish until the hub has routed the burst
      // and queued its frames on the sockets (a socket past its flush window also sends them
      // in a microtask before `await` resumes; the others send when their window ends, which
      // this does not include). Free of the clients' scheduling, which end-to-end includes.
      const serverMs: number[] = [];
      const tick = async () => {
        const due = Math.min(EVENTS, Math.floor(((now() - started) / 1000) * RATE));
        const publishedAt: number[] = [];
        for (; sent < due; sent++) {
          publishedAt.push(now());
          const { companyId, scope } = eventFacts(sent, plan);
          if (scope.kind !== "ticket") continue;
          bus.publish({
            companyId,
            channel: `company-${companyId}-ticket`,
            data: {
              action: "update",
              ticket: {
                id: scope.ticketId,
                companyId,
                status: scope.status,
                queueId: scope.queueId,
                userId: scope.userId,
                isGroup: scope.isGroup,
                unreadMessages: sent % 4,
                lastMessage: "Olá, gostaria de saber o status do meu pedido número 12345, obrigado!",
                updatedAt: new Date().toISOString(),
                contact: { id: 1000 + sent, name: `Cliente ${sent}`, number: `55119${String(sent).padStart(8, "0")}` },
              },
              sentAt: now(),
            },
            scope,
          });
        }
        await Promise.resolve();
        const flushed = now();
        for (const at of publishedAt) serverMs.push(flushed - at);
        if (sent >= EVENTS) done.resolve();
        else setTimeout(tick, 1);
      };
      tick();
      await done.promise;
      const elapsed = now() - started;
      serverMs.sort((a, b) => a - b);
      const at = (p: number) => serverMs[Math.min(serverMs.length - 1, Math.floor((p / 100) * serverMs.length))];
      console.log(JSON.stringify({
        type: "done",
        published: sent,
        elapsedMs: elapsed,
        rss: Deno.memoryUsage().rss,
        serverP50: at(50),
        serverP99: at(99),
      }));
    } else if (line === "exit") {
      break;
    }
  }
  await server.close();
  Deno.exit(0);
}

/** Lines of a byte stream. */
async function* readLines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  let buffer = "";
  const decoder = new TextDecoder();
  for await (const bytes of stream) {
    buffer += decoder.decode(bytes, { stream: true });
    let nl;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      yield buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
    }
  }
}

// ───────────────────────────── client process ─────────────────────────────

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function clientMain(): Promise<void> {
  const began = now();
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      `--v8-flags=${Deno.env.get("FANOUT_V8_FLAGS") ?? PRODUCTION_V8_FLAGS}`,
      ...(Deno.env.get("FANOUT_PROFILE") ? ["--cpu-prof", `--cpu-prof-dir=${Deno.env.get("FANOUT_PROFILE")}`] : []),
      new URL(import.meta.url).pathname,
      "--server",
    ],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
    env: { ...PRODUCTION_ENV, FANOUT_EVENTS: String(EVENTS), FANOUT_RATE: String(RATE), FANOUT_SOCKETS: String(SOCKETS), FANOUT_OTHER: String(OTHER), FANOUT_QUEUES: String(QUEUES) },
  }).spawn();
  const writer = child.stdin.getWriter();
  const say = (line: string) => writer.write(new TextEncoder().encode(line + "\n"));
  const lines = readLines(child.stdout);
  const nextMessage = async () => {
    for (;;) {
      const { value, done } = await lines.next();
      if (done) throw new Error("Server process ended");
      if (value.startsWith("{")) return JSON.parse(value);
      console.error("[server]", value);
    }
  };

  const ready = await nextMessage();
  const plans: SocketPlan[] = ready.sockets;
  const plan = ready.plan;
  console.log(`server up with ${plans.length} users in ${((now() - began) / 1000).toFixed(1)} s; opening sockets (${FORMAT}, ${CLIENT} client)`);

  const received = plans.map(() => new Uint8Array(EVENTS));
  const latencies = new Float64Array(EVENTS * 200);
  let latencyCount = 0;
  let frames = 0;
  let messages = 0;
  let otherFrames = 0;
  let firstAt = 0;
  let lastAt = 0;
  let crossCompany = 0;
  /** Sockets the server closed, by code and reason. */
  const closes = new Map<string, number>();
  const sockets: ClientSocket[] = [];
  /** Set when the bench closes its sockets: closes from then on are its own. */
  let finished = false;
  const url = ready.url.replace(/^http/, "ws") + "/ws";

  const open = (index: number) =>
    new Promise<void>((resolve, reject) => {
      const p = plans[index];
      const myCompany = `company-${p.principal.companyId}-`;
      // deno-lint-ignore no-explicit-any -- frames are checked field by field below
      const onFrame = (frame: any, at: number) => {
        if (frame.type === "hello") return resolve();
        if (frame.type === "ping") return socket.send('{"type":"pong"}');
        if (typeof frame.channel !== "string" || !frame.channel.endsWith("-ticket")) {
          otherFrames++;
          return;
        }
        if (!frame.channel.startsWith(myCompany)) crossCompany++;
        const id = frame.data.ticket.id - 1;
        received[index][id]++;
        latencies[latencyCount++] = at - frame.data.sentAt;
        frames++;
        if (!firstAt) firstAt = at;
        lastAt = at;
      };
      const handlers: WsHandlers = {
        onMessage(data, at) {
          messages++;
          const message = typeof data === "string" ? JSON.parse(data) : unpack(data);
          if (Array.isArray(message)) for (const frame of message) onFrame(frame, at);
          else onFrame(message, at);
        },
        onClose(code, reason) {
          if (finished) return;
          const key = `${code} ${reason}`;
          closes.set(key, (closes.get(key) ?? 0) + 1);
          reject(new Error(`socket ${index} closed ${key}`));
        },
      };
      const target = `${url}?token=${p.token}&format=${FORMAT}`;
      const socket = CLIENT === "deno" ? denoWebSocket(target, handlers) : new WsClient(target, handlers);
      socket.opened.catch(reject);
      sockets.push(socket);
    });
  await say("rss");
  const rssIdle = await nextMessage();
  const connectStarted = now();
  for (let i = 0; i < plans.length; i += 200) {
    await Promise.all(plans.slice(i, i + 200).map((_, k) => open(i + k)));
  }
  console.log(`${plans.length} sockets authenticated in ${((now() - connectStarted) / 1000).toFixed(1)} s`);
  // Let the presence updates of the connections (one company-wide event each) drain.
  let settled = otherFrames;
  for (;;) {
    await new Promise((r) => setTimeout(r, 500));
    if (otherFrames === settled) break;
    settled = otherFrames;
  }
  await say("rss");
  const rss = await nextMessage();

  // Expected receivers, by the same rule the list endpoints use; worked out before the run, as
  // it blocks this process for a while and would delay the receipt of the last frames.
  let expectedTotal = 0;
  const settings = SETTING_DEFAULTS;
  const expectedBy = plans.map(() => new Uint8Array(EVENTS));
  for (let i = 0; i < EVENTS; i++) {
    const { companyId, scope } = eventFacts(i, plan);
    plans.forEach((p, s) => {
      if (p.principal.companyId === companyId && allowed(p.principal, scope, settings)) {
        expectedBy[s][i] = 1;
        expectedTotal++;
      }
    });
  }
  const messagesBefore = messages;
  await say("cpu");
  const serverCpuBefore = (await nextMessage()).cpu;
  const clientCpuBefore = cpuMs();
  await say("go");
  const done = await nextMessage();

  const deadline = now() + 30_000;
  while (frames < expectedTotal && now() < deadline) await new Promise((r) => setTimeout(r, 50));

  const clientCpu = cpuMs() - clientCpuBefore;
  await say("cpu");
  const serverCpu = (await nextMessage()).cpu - serverCpuBefore;
  let dropped = 0;
  let misrouted = 0;
  let duplicated = 0;
  for (let s = 0; s < plans.length; s++) {
    for (let i = 0; i < EVENTS; i++) {
      const got = received[s][i];
      const want = expectedBy[s][i];
      if (want && !got) dropped++;
      if (!want && got) misrouted++;
      if (got > 1) duplicated += got - 1;
    }
  }
  const sorted = latencies.slice(0, latencyCount).sort();
  const deliverSeconds = (lastAt - firstAt) / 1000;
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
  console.log([
    `published ${done.published} events in ${(done.elapsedMs / 1000).toFixed(2)} s (${(done.published / (done.elapsedMs / 1000)).toFixed(0)} events/s; target ${RATE})`,
    `frames expected ${expectedTotal} (avg ${(expectedTotal / EVENTS).toFixed(1)} sockets/event), delivered ${frames} in ${deliverSeconds.toFixed(2)} s = ${(frames / deliverSeconds).toFixed(0)} frames/s`,
    `WebSocket messages ${messages - messagesBefore} (${(frames / Math.max(1, messages - messagesBefore)).toFixed(1)} events per message)`,
    `server-side publish→queued on the sockets (before the flush window): p50 ${done.serverP50.toFixed(2)} ms, p99 ${done.serverP99.toFixed(2)} ms`,
    `latency publish→receipt: p50 ${percentile(sorted, 50).toFixed(2)} ms, p99 ${percentile(sorted, 99).toFixed(2)} ms, max ${sorted.at(-1)?.toFixed(2)} ms`,
    `CPU during the run: server ${(serverCpu / 1000).toFixed(1)} s (${((serverCpu * 1000) / frames).toFixed(1)} µs per frame), ` +
    `clients ${(clientCpu / 1000).toFixed(1)} s (${((clientCpu * 1000) / frames).toFixed(1)} µs per frame); load average ${Deno.loadavg()[0].toFixed(1)}`,
    `sockets closed by the server: ${closes.size ? JSON.stringify(Object.fromEntries(closes)) : "none"}`,
    `dropped ${dropped}, misrouted ${misrouted} (cross-company ${crossCompany}), duplicated ${duplicated}`,
    `server RSS ${mb(rssIdle.rss)} before the sockets, ${mb(rss.rss)} with ${rss.hub.sockets} sockets open, ${mb(done.rss)} after publishing; client RSS ${mb(Deno.memoryUsage().rss)}`,
    `total bench time ${((now() - began) / 1000).toFixed(1)} s`,
  ].join("\n"));

  finished = true;
  for (const socket of sockets) socket.close();
  await say("exit");
  await writer.close();
  await child.status;
  if (dropped || misrouted || duplicated) Deno.exit(1);
}

if (import.meta.main) {
  if (Deno.args.includes("--server")) await serverMain();
  else await clientMain();
}
