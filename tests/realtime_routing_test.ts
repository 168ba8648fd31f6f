/**
 * Who receives what: sockets of two companies and of users of different queues get exactly
 * the events they may see over a scripted sequence (issue #5).
 */
import assert from "node:assert/strict";
import type { BusEvent, EventScope } from "../domain/events.ts";
import type { TestServer } from "./helpers/server.ts";
import { fixtures, markerEvent, type WsClient, withSockets } from "./helpers/ws.ts";

type TicketFacts = { queueId: number | null; userId?: number | null; isGroup?: boolean; status?: string };

function ticketScope(id: number, facts: TicketFacts): EventScope {
  return {
    kind: "ticket",
    ticketId: id,
    queueId: facts.queueId,
    userId: facts.userId ?? null,
    isGroup: facts.isGroup ?? false,
    status: facts.status ?? "open",
  };
}

function ticketEvent(companyId: number, id: number, facts: TicketFacts): BusEvent {
  return {
    companyId,
    channel: `company-${companyId}-ticket`,
    data: { action: "update", ticket: { id } },
    scope: ticketScope(id, facts),
  };
}

function messageEvent(companyId: number, ticketId: number, facts: TicketFacts): BusEvent {
  return {
    companyId,
    channel: `company-${companyId}-appMessage`,
    data: { action: "create", message: { id: ticketId * 100 }, ticket: { id: ticketId } },
    scope: ticketScope(ticketId, facts),
  };
}

/** What a socket received since `from`, as short labels (`ticket:3`, `auth`, `marker:x`…). */
function labels(ws: WsClient, from = 0): string[] {
  return ws.events().slice(from).map((e) => {
    const kind = e.channel.replace(/^company-\d+-/, "");
    const data = e.data as Record<string, { id?: number; tag?: string } | undefined>;
    if (kind === "ticket" || kind === "appMessage") return `${kind}:${data.ticket?.id}`;
    if (kind === "test-marker" || e.channel === "test-marker") return `marker:${data.tag}`;
    return kind;
  }).filter((l) => l !== "user"); // presence writes of the sockets themselves
}

/** Publishes a marker to each company and waits until every socket has it. */
async function sync(server: TestServer, companyIds: number[], sockets: WsClient[], tag: string) {
  for (const id of companyIds) server.deps.bus.publish(markerEvent(id, tag));
  await Promise.all(
    sockets.map((ws) => ws.until((f) => "channel" in f && (f.data as { tag?: string })?.tag === tag)),
  );
}

Deno.test("Hub routes ticket events by canSeeTicket, never across companies, and follows settings and queue changes", async () => {
  await withSockets(async (server, pool) => {
    const D = server.demo!.companyId;
    const [suporte, vendas] = server.demo!.queueIds;
    const vendasUser = await fixtures.user(server, { companyId: D, email: "v@demo.local", queueIds: [vendas] });
    const noQueueUser = await fixtures.user(server, { companyId: D, email: "n@demo.local" });
    const other = await fixtures.company(server, "Outra");
    const E = other.id;
    const otherAdmin = await fixtures.user(server, { companyId: E, email: "a@outra.local", profile: "admin" });
    const otherAgent = await fixtures.user(server, { companyId: E, email: "u@outra.local" });

    const adminHttp = await server.login("admin@demo.local");
    const agentId = server.demo!.logins.find((l) => l.email === "agent@demo.local")!.id;
    const ws = {
      admin: await pool.connect(adminHttp.token!),
      supervisor: await pool.connect((await server.login("supervisor@demo.local")).token!),
      agent: await pool.connect((await server.login("agent@demo.local")).token!),
      vendas: await pool.connect(await fixtures.token(server, vendasUser)),
      noQueue: await pool.connect(await fixtures.token(server, noQueueUser)),
      otherAdmin: await pool.connect(await fixtures.token(server, otherAdmin)),
      otherAgent: await pool.connect(await fixtures.token(server, otherAgent)),
    };
    const all = Object.values(ws);
    const bus = server.deps.bus;

    bus.publish(ticketEvent(D, 1, { queueId: suporte }));
    bus.publish(ticketEvent(D, 2, { queueId: vendas }));
    bus.publish(ticketEvent(D, 3, { queueId: null }));
    bus.publish(ticketEvent(D, 4, { queueId: suporte, userId: vendasUser.id }));
    bus.publish(ticketEvent(D, 5, { queueId: suporte, status: "closed" }));
    bus.publish(ticketEvent(D, 6, { queueId: suporte, isGroup: true }));
    bus.publish({
      companyId: D,
      channel: `company-${D}-chat-user-${agentId}`,
      data: { action: "new-message" },
      scope: { kind: "users", userIds: [agentId] },
    });
    bus.publish({ companyId: D, channel: `company-${D}-payment`, data: { action: "CONCLUIDA" }, scope: { kind: "admins" } });
    bus.publish({
      companyId: D,
      channel: `company-${D}-campaign`,
      data: { action: "update" },
      scope: { kind: "admins", supervisors: true },
    });
    bus.publish(ticketEvent(E, 1, { queueId: null }));
    bus.publish({ companyId: null, channel: "company-announcement", data: { action: "create" }, scope: { kind: "company" } });
    bus.publish({ companyId: D, channel: `company-${D}-contact`, data: { action: "update" }, scope: { kind: "company" } });
    await sync(server, [D, E], all, "phase1");

    const everyD = ["ticket:1", "ticket:2", "ticket:3", "ticket:4", "ticket:5", "ticket:6"];
    assert.deepEqual(labels(ws.admin), [...everyD, "payment", "campaign", "company-announcement", "contact", "marker:phase1"]);
    assert.deepEqual(labels(ws.supervisor), [...everyD, "campaign", "company-announcement", "contact", "marker:phase1"]);
    assert.deepEqual(labels(ws.agent), ["ticket:1", "ticket:3", "ticket:4", `chat-user-${agentId}`, "company-announcement", "contact", "marker:phase1"]);
    assert.deepEqual(labels(ws.vendas), ["ticket:2", "ticket:3", "ticket:4", "company-announcement", "contact", "marker:phase1"]);
    assert.deepEqual(labels(ws.noQueue), ["ticket:3", "company-announcement", "contact", "marker:phase1"]);
    assert.deepEqual(labels(ws.otherAdmin), ["ticket:1", "company-announcement", "marker:phase1"]);
    assert.deepEqual(labels(ws.otherAgent), ["ticket:1", "company-announcement", "marker:phase1"]);
    for (const socket of [ws.otherAdmin, ws.otherAgent]) {
      assert.ok(socket.events().every((e) => e.channel === "company-announcement" || e.channel.startsWith(`company-${E}-`)));
    }

    // Settings and queue changes made through the API take effect for the next events.
    const marks = Object.fromEntries(Object.entries(ws).map(([k, s]) => [k, s.events().length]));
    assert.equal((await adminHttp.put("/settings/viewclosed", { value: "enabled" })).status, 200);
    assert.equal((await adminHttp.put(`/users/${noQueueUser.id}`, { queueIds: [vendas] })).status, 200);
    await ws.agent.event(`company-${D}-settings`);
    await ws.noQueue.event(`company-${D}-user`, (d) => (d.user as { id?: number })?.id === noQueueUser.id);
    bus.publish(ticketEvent(D, 7, { queueId: suporte, status: "closed" }));
    bus.publish(ticketEvent(D, 8, { queueId: vendas }));
    await sync(server, [D, E], all, "phase2");
    const tickets = (k: keyof typeof ws) => labels(ws[k], marks[k]).filter((l) => l.startsWith("ticket"));
    assert.deepEqual(tickets("admin"), ["ticket:7", "ticket:8"]);
    assert.deepEqual(tickets("agent"), ["ticket:7"]);
    assert.deepEqual(tickets("vendas"), ["ticket:8"]);
    assert.deepEqual(tickets("noQueue"), ["ticket:8"]);
    assert.deepEqual(tickets("otherAdmin"), []);
    assert.ok(labels(ws.agent, marks.agent).includes("settings"));
    assert.ok(!labels(ws.otherAdmin, marks.otherAdmin).includes("settings"));
  });
});

Deno.test("Hub sends appMessage events to joined chat boxes, notification and ticket lists, only when visible", async () => {
  await withSockets(async (server, pool) => {
    const D = server.demo!.companyId;
    const [suporte, vendas] = server.demo!.queueIds;
    const vendasUser = await fixtures.user(server, { companyId: D, email: "v@demo.local", queueIds: [vendas] });
    const admin = await pool.connect((await server.login("admin@demo.local")).token!);
    const supervisor = await pool.connect((await server.login("supervisor@demo.local")).token!);
    const agentToken = (await server.login("agent@demo.local")).token!;
    const agentIdle = await pool.connect(agentToken);
    const agentChat = await pool.connect(agentToken);
    const vendasChat = await pool.connect(await fixtures.token(server, vendasUser));
    admin.send({ type: "joinNotification" });
    supervisor.send({ type: "joinTickets", status: "pending" });
    agentChat.send({ type: "joinChatBox", ticketId: 1 });
    vendasChat.send({ type: "joinChatBox", ticketId: 1 }); // not its queue: must get nothing
    vendasChat.send({ type: "joinNotification" });
    const all = [admin, supervisor, agentIdle, agentChat, vendasChat];
    await sync(server, [D], all, "joined");
    const from = new Map(all.map((s) => [s, s.events().length]));

    const bus = server.deps.bus;
    bus.publish(messageEvent(D, 1, { queueId: suporte }));
    bus.publish(messageEvent(D, 2, { queueId: suporte, status: "pending" }));
    bus.publish(messageEvent(D, 3, { queueId: vendas }));
    await sync(server, [D], all, "messages");
    const got = (s: WsClient) => labels(s, from.get(s)).filter((l) => l.startsWith("appMessage"));
    assert.deepEqual(got(admin), ["appMessage:1", "appMessage:2", "appMessage:3"]);
    assert.deepEqual(got(supervisor), ["appMessage:2"]);
    assert.deepEqual(got(agentIdle), []);
    assert.deepEqual(got(agentChat), ["appMessage:1"]);
    assert.deepEqual(got(vendasChat), ["appMessage:3"]);

    agentChat.send({ type: "leaveChatBox", ticketId: 1 });
    admin.send({ type: "leaveNotification" });
    await sync(server, [D], all, "left");
    const mark = new Map(all.map((s) => [s, s.events().length]));
    bus.publish(messageEvent(D, 1, { queueId: suporte }));
    await sync(server, [D], all, "after-leave");
    assert.deepEqual(labels(agentChat, mark.get(agentChat)), ["marker:after-leave"]);
    assert.deepEqual(labels(admin, mark.get(admin)), ["marker:after-leave"]);
  });
});

Deno.test("POST /auth/login publishes company-{id}-auth to the user's other sockets only", async () => {
  await withSockets(async (server, pool) => {
    const D = server.demo!.companyId;
    const agentTab = await pool.connect((await server.login("agent@demo.local")).token!);
    const adminTab = await pool.connect((await server.login("admin@demo.local")).token!);
    const agentId = (await agentTab.hello()).userId;
    await server.login("agent@demo.local");
    const frame = await agentTab.event(`company-${D}-auth`);
    assert.deepEqual(frame.data, { action: "update", user: { id: agentId } });
    await sync(server, [D], [adminTab], "after-login");
    assert.equal(adminTab.eventsOn(`company-${D}-auth`).length, 0);
  });
});

Deno.test("Hub closes the sockets of a deleted user and stops sending to them", async () => {
  await withSockets(async (server, pool) => {
    const D = server.demo!.companyId;
    const doomed = await fixtures.user(server, { companyId: D, email: "d@demo.local" });
    const ws = await pool.connect(await fixtures.token(server, doomed));
    const admin = await server.login("admin@demo.local");
    assert.equal((await admin.delete(`/users/${doomed.id}`)).status, 200);
    assert.equal((await ws.closed).code, 4001);
  });
});
