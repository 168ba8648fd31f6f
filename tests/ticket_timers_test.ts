/**
 * The ticket desk's durable timers through the real server (issue #17): auto-move of an
 * unanswered pending ticket, auto-close of an open ticket whose customer went silent (with the
 * connection's close message, and after the spec's 24-hour default when the connection sets
 * none), and the queue router's rotation among online users. Intervals
 * are the spec's minutes with a shortened minute (config timerMinuteMs), so a rule fires in
 * about a second; assertions on time are lower bounds (never early), not exact.
 */
import assert from "node:assert/strict";
import { deskState } from "../actors/tickets/mod.ts";
import { closeTimerId, DEFAULT_INACTIVITY_MINUTES } from "../domain/ticket_timers.ts";
import { eventually } from "./helpers/channels.ts";
import { type Client, type TestServer, withServer } from "./helpers/server.ts";
import { SocketPool } from "./helpers/ws.ts";

/** A test minute (a test below that acts within one interval takes a longer one). */
const MINUTE = 500;

interface Ticket {
  id: number;
  status: string;
  queueId: number | null;
  userId: number | null;
  closedAt: string | null;
  createdAt: string;
  updatedAt: string;
  contact?: { number: string };
}

/** Creates a paired simulator connection with `fields` (the timer settings). */
async function connection(admin: Client, fields: Record<string, unknown>): Promise<number> {
  const created = await admin.post("/whatsapp", { name: `Timers ${crypto.randomUUID().slice(0, 6)}`, ...fields });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const id = created.body.id as number;
  assert.equal((await admin.post(`/simulator/${id}/scan`)).status, 200);
  await eventually(async () => (await admin.get(`/whatsapp/${id}`)).body.status === "CONNECTED" || undefined, 10_000, "paired");
  return id;
}

/** A customer writes on connection `conn`; resolves with the ticket it lands in. */
async function customerWrites(admin: Client, conn: number, from: string, body: string): Promise<Ticket> {
  const sent = await admin.post(`/simulator/${conn}/inbound`, { from, name: `Cliente ${from.slice(-4)}`, body });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  return await eventually(async () => {
    const list = (await admin.get("/tickets?showAll=true&status=pending&limit=1000")).body.tickets as Ticket[];
    const open = (await admin.get("/tickets?showAll=true&status=open&limit=1000")).body.tickets as Ticket[];
    return [...list, ...open].find((t) => t.contact?.number === from);
  }, 10_000, `ticket of ${from}`);
}

async function ticket(client: Client, id: number): Promise<Ticket> {
  const r = await client.get(`/tickets/${id}`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body;
}

function userId(server: TestServer, email: string): number {
  return server.demo!.logins.find((l) => l.email === email)!.id;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

Deno.test("auto-move: a pending ticket nobody accepted moves to the transfer queue; an accepted one stays", async () => {
  // The accept below must land within the interval: 2 minutes of 1 s.
  const minute = 1000;
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const [support, sales] = server.demo!.queueIds;
    const conn = await connection(admin, { queueIds: [support], selectedInterval: 2, selectedMoveQueueId: sales });

    // Answered first: accepted at once, so it must never move.
    const answered = await customerWrites(admin, conn, "5511990000001", "Oi");
    const accept = await admin.put(`/tickets/${answered.id}`, { status: "open", userId: userId(server, "admin@demo.local") });
    assert.equal(accept.status, 200, JSON.stringify(accept.body));

    const waiting = await customerWrites(admin, conn, "5511990000002", "Alguém?");
    assert.equal(waiting.queueId, support);
    const moved = await eventually(async () => {
      const t = await ticket(admin, waiting.id);
      return t.queueId === sales ? t : undefined;
    }, 15_000, "auto-move");
    const waited = Date.parse(moved.updatedAt) - Date.parse(moved.createdAt);
    assert.ok(waited >= 2 * minute, `moved after ${waited} ms, before the interval`);
    assert.equal(moved.status, "pending");
    assert.equal(moved.userId, null);
    // The conversation shows the system's transfer, by nobody (the note follows the commit).
    const notes = await eventually(async () => {
      const list = (await admin.get(`/tickets/${waiting.id}/tracking`)).body.tracking as { action: string; byUserId: number | null }[];
      return list.length > 0 ? list : undefined;
    }, 10_000, "tracking note");
    assert.deepEqual(notes.map((n) => [n.action, n.byUserId]), [["transfer", null]]);

    // The answered ticket's would-be due time passed long ago (it arrived first).
    await sleep(minute);
    const stayed = await ticket(admin, answered.id);
    assert.equal(stayed.queueId, support);
    assert.equal(stayed.status, "open");
    // The moved ticket waits no more: it is where the rule sends it.
    assert.equal(server.deps.system.kinds.includes("ticket-desk"), true);
    const timers = await Array.fromAsync(server.deps.kv.list({ prefix: ["timer_wheel", "ticket-desk"] }));
    assert.deepEqual(timers.map((e) => e.key.at(-1)).filter((id) => String(id).startsWith("move:")), []);
  }, { timerMinuteMs: minute });
});

Deno.test("auto-close: an open ticket whose customer stays silent closes with the close message, once", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const [support] = server.demo!.queueIds;
    const conn = await connection(admin, {
      queueIds: [support],
      inatividade: 5,
      closeMessage: "Encerramos por falta de resposta, {{name}}.",
    });
    const t = await customerWrites(admin, conn, "5511990000003", "Quero saber do pedido");
    assert.equal((await admin.put(`/tickets/${t.id}`, { status: "open", userId: userId(server, "admin@demo.local") })).status, 200);

    // The customer wrote last: it waits on the agent, nothing closes it.
    await sleep(5 * MINUTE + 500);
    assert.equal((await ticket(admin, t.id)).status, "open");

    // The agent asks; a second question later restarts the silence (lazily re-armed timer).
    assert.equal((await admin.post(`/messages/${t.id}`, { body: "Qual o número do pedido?" })).status, 200);
    await sleep(2 * MINUTE);
    const last = await admin.post(`/messages/${t.id}`, { body: "Está aí?" });
    assert.equal(last.status, 200);
    const lastAt = Date.parse(last.body.message.createdAt);

    const closed = await eventually(async () => {
      const now = await ticket(admin, t.id);
      return now.status === "closed" ? now : undefined;
    }, 15_000, "auto-close");
    assert.ok(Date.parse(closed.closedAt!) >= lastAt + 5 * MINUTE - 5, "closed before the silence lasted the interval");

    const text = "Encerramos por falta de resposta, Cliente 0003.";
    const sent = await eventually(async () => {
      const box = (await admin.get(`/simulator/${conn}/outbox`)).body.messages as { body: string }[];
      return box.some((m) => m.body === text) ? box : undefined;
    }, 10_000, "close message");
    await sleep(3 * MINUTE);
    const messages = (await admin.get(`/messages/${t.id}`)).body.messages as { body: string }[];
    assert.equal(messages.filter((m) => m.body === text).length, 1, "close message stored once");
    assert.equal(sent.filter((m) => m.body === text).length, 1, "close message sent once");
    // The conversation shows the system's close once, by nobody.
    const notes = (await admin.get(`/tickets/${t.id}/tracking`)).body.tracking as { action: string; byUserId: number | null }[];
    assert.deepEqual(notes.filter((n) => n.action === "close").map((n) => n.byUserId), [null]);

    // A customer who answers in time keeps the ticket open.
    const other = await customerWrites(admin, conn, "5511990000004", "Oi");
    assert.equal((await admin.put(`/tickets/${other.id}`, { status: "open", userId: userId(server, "admin@demo.local") })).status, 200);
    assert.equal((await admin.post(`/messages/${other.id}`, { body: "Como posso ajudar?" })).status, 200);
    await sleep(2 * MINUTE);
    await customerWrites(admin, conn, "5511990000004", "Preciso de uma segunda via");
    await sleep(5 * MINUTE + 500);
    assert.equal((await ticket(admin, other.id)).status, "open");
  }, { timerMinuteMs: MINUTE });
});

Deno.test("auto-close default: a connection that sets no inactivity closes a silent ticket after 24 hours", async () => {
  // 24 hours of 2 ms minutes: 2.88 s.
  const minute = 2;
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const [support] = server.demo!.queueIds;
    const conn = await connection(admin, { queueIds: [support] });
    assert.equal((await admin.get(`/whatsapp/${conn}`)).body.inatividade, 0, "none set");
    const closeDue = async (id: number) => (await deskState(server.deps.system, server.demo!.companyId)).wheel.due(closeTimerId(id));

    const t = await customerWrites(admin, conn, "5511990000013", "Olá, tudo bem?");
    assert.equal((await admin.put(`/tickets/${t.id}`, { status: "open", userId: userId(server, "admin@demo.local") })).status, 200);
    assert.equal(await closeDue(t.id), undefined, "the customer wrote last: nothing waits to close it");

    const reply = await admin.post(`/messages/${t.id}`, { body: "Tudo! Como posso ajudar?" });
    assert.equal(reply.status, 200);
    const repliedAt = Date.parse(reply.body.message.createdAt);
    const due = await closeDue(t.id);
    assert.ok(due !== undefined && Math.abs(due - (repliedAt + DEFAULT_INACTIVITY_MINUTES * minute)) <= 50, `armed for ${due}`);

    const closed = await eventually(async () => {
      const now = await ticket(admin, t.id);
      return now.status === "closed" ? now : undefined;
    }, 15_000, "default auto-close");
    assert.ok(Date.parse(closed.closedAt!) >= repliedAt + DEFAULT_INACTIVITY_MINUTES * minute - 5, "closed before 24 hours of silence");
  }, { timerMinuteMs: minute });
});

Deno.test("router: a pending ticket is offered to the queue's online users in turn until one accepts it", async () => {
  // A longer test minute: the assertions below act within one offer's interval (2 minutes).
  const minute = 1000;
  await withServer(async (server) => {
    server.deps.hub.configure({ presenceGraceMs: 60_000 });
    const admin = await server.login("admin@demo.local");
    const [support] = server.demo!.queueIds;
    const queue = (await admin.get(`/queue/${support}`)).body;
    const saved = await admin.put(`/queue/${support}`, { ...queue, ativarRoteador: true, tempoRoteador: 2 });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const conn = await connection(admin, { queueIds: [support] });

    // Online: the supervisor and the agent, both of the queue (the admin only speaks HTTP here).
    const pool = new SocketPool(server.url);
    try {
      const clients = {
        [userId(server, "supervisor@demo.local")]: await server.login("supervisor@demo.local"),
        [userId(server, "agent@demo.local")]: await server.login("agent@demo.local"),
      };
      for (const client of Object.values(clients)) await pool.connect(client.token!);
      const online = Object.keys(clients).map(Number);
      const offer = (id: number, not?: number) =>
        eventually(async () => {
          const t = await ticket(admin, id);
          return t.status === "pending" && t.userId !== null && t.userId !== not ? t : undefined;
        }, 15_000, `an offer of ticket ${id}`);

      const t = await customerWrites(admin, conn, "5511990000005", "Oi");
      const first = await offer(t.id);
      assert.ok(online.includes(first.userId!), `offered to an online user of the queue, not ${first.userId}`);
      const offeredAt = Date.now();
      // Not accepted within the interval: offered to the other online user.
      const second = await offer(t.id, first.userId!);
      assert.ok(Date.now() - offeredAt >= 2 * minute - 300, "re-offered before the interval");
      assert.ok(online.includes(second.userId!));

      // Only the user it is offered to (or a manager) may take it; that user may.
      const agentId = userId(server, "agent@demo.local");
      if (second.userId !== agentId) {
        assert.equal((await clients[agentId].put(`/tickets/${t.id}`, { status: "open" })).status, 403);
      }
      const accepted = await clients[second.userId!].put(`/tickets/${t.id}`, { status: "open" });
      assert.equal(accepted.status, 200, JSON.stringify(accepted.body));

      // Accepted: the rotation stops.
      await sleep(3 * minute);
      const kept = await ticket(admin, t.id);
      assert.equal(kept.status, "open");
      assert.equal(kept.userId, second.userId);
    } finally {
      await pool.closeAll();
    }
  }, { timerMinuteMs: minute });
});
