import assert from "node:assert/strict";
import { pageOfMessages, sendSystemMessage } from "../actors/messages/mod.ts";
import { getTicket } from "../actors/tickets/mod.ts";
import { type TestServer, withServer } from "./helpers/server.ts";
import { createTenant } from "./helpers/tenants.ts";
import {
  defaultConnection,
  inboundTicket,
  makeContact,
  makeUser,
  setSettings,
} from "./helpers/fixtures.ts";

async function demo(server: TestServer) {
  const companyId = server.demo!.companyId;
  const [support, sales] = server.demo!.queueIds;
  const conn = await defaultConnection(server, companyId);
  const admin = await server.login("admin@demo.local");
  const supervisor = await server.login("supervisor@demo.local");
  const agent = await server.login("agent@demo.local");
  const agentId = server.demo!.logins.find((l) => l.email === "agent@demo.local")!.id;
  return { companyId, support, sales, conn, admin, supervisor, agent, agentId };
}

Deno.test("POST /tickets opens a ticket for the user with queue and connection", async () => {
  await withServer(async (server) => {
    const d = await demo(server);
    const contact = await makeContact(server, d.companyId, { name: "Maria Souza" });
    const created = await d.agent.post("/tickets", { contactId: contact.id, queueId: d.support });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const t = created.body;
    assert.equal(t.status, "open");
    assert.equal(t.userId, d.agentId);
    assert.equal(t.queueId, d.support);
    assert.equal(t.whatsappId, d.conn.id);
    assert.equal(typeof t.uuid, "string");
    assert.deepEqual(t.contact, {
      id: contact.id,
      name: "Maria Souza",
      number: contact.number,
      profilePicUrl: contact.profilePicUrl,
    });
    assert.deepEqual(t.queue, { id: d.support, name: "Suporte", color: "#2563eb" });
    assert.equal(t.user.id, d.agentId);
    assert.deepEqual(t.whatsapp, { id: d.conn.id, name: d.conn.name, channel: "whatsapp", provider: d.conn.provider });
    assert.deepEqual(t.tags, []);

    const byId = await d.agent.get(`/tickets/${t.id}`);
    assert.equal(byId.status, 200);
    assert.equal(byId.body.uuid, t.uuid);
    const byUuid = await d.agent.get(`/tickets/u/${t.uuid}`);
    assert.equal(byUuid.status, 200);
    assert.equal(byUuid.body.id, t.id);
  });
});

Deno.test("POST /tickets validates queue, connection, contact and ERR_OTHER_OPEN_TICKET", async () => {
  await withServer(async (server) => {
    const companyId = server.demo!.companyId;
    const agent = await server.login("agent@demo.local");
    const admin = await server.login("admin@demo.local");
    const contact = await makeContact(server, companyId);
    const conn = await defaultConnection(server, companyId);

    const noQueue = await agent.post("/tickets", { contactId: contact.id });
    assert.equal(noQueue.status, 400);
    assert.equal(noQueue.body.fields.queueId, "Selecione uma fila");
    const otherQueue = await agent.post("/tickets", {
      contactId: contact.id,
      queueId: server.demo!.queueIds[1],
    });
    assert.equal(otherQueue.status, 403);
    assert.equal(otherQueue.body.error, "ERR_NO_PERMISSION");
    assert.equal(otherQueue.body.message, "Atendimento em uso por outro setor!");
    assert.equal((await agent.post("/tickets", { contactId: 99999, queueId: 1 })).status, 404);
    assert.equal((await admin.post("/tickets", { contactId: contact.id, whatsappId: 999 })).status, 404);

    const first = await admin.post("/tickets", { contactId: contact.id, whatsappId: conn.id });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.queueId, null);
    const again = await agent.post("/tickets", { contactId: contact.id, queueId: server.demo!.queueIds[0] });
    assert.equal(again.status, 400);
    assert.equal(again.body.error, "ERR_OTHER_OPEN_TICKET");
    assert.equal(again.body.ticket.id, first.body.id);
    assert.equal(again.body.ticket.uuid, first.body.uuid);
    assert.equal(again.body.ticket.status, "open");
    assert.equal(again.body.ticket.userId, first.body.userId);
    assert.deepEqual(again.body.ticket.user, { id: first.body.userId, name: "Ana Admin" });

    // Another connection is another conversation: allowed.
    const second = await makeConnectionFor(server, companyId);
    const elsewhere = await admin.post("/tickets", { contactId: contact.id, whatsappId: second });
    assert.equal(elsewhere.status, 200);
  });
});

Deno.test("POST /tickets without a connection and no default one is ERR_NO_DEF_WAPP_FOUND", async () => {
  await withServer(async (server) => {
    const tenant = await createTenant(server, "Sem Conexão");
    const contact = await makeContact(server, tenant.companyId);
    const noConn = await tenant.admin.post("/tickets", { contactId: contact.id });
    assert.equal(noConn.status, 400);
    assert.equal(noConn.body.error, "ERR_NO_DEF_WAPP_FOUND");
    assert.equal(noConn.body.fields.whatsappId, "Selecione uma conexão");
  });
});

async function makeConnectionFor(server: TestServer, companyId: number): Promise<number> {
  const { makeConnection } = await import("./helpers/fixtures.ts");
  return (await makeConnection(server, companyId, { isDefault: false })).id;
}

Deno.test("PUT /tickets/{id} accept, return, transfer, resolve, reopen with real requests", async () => {
  await withServer(async (server) => {
    const d = await demo(server);
    const t = await inboundTicket(server, d.companyId, { queueId: d.support });
    assert.equal(t.status, "pending");

    const accepted = await d.agent.put(`/tickets/${t.id}`, {
      status: "open",
      userId: d.agentId,
      queueId: d.support,
    });
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    assert.equal(accepted.body.status, "open");
    assert.equal(accepted.body.userId, d.agentId);
    assert.equal(accepted.body.user.name, "Alice Atendente");

    const returned = await d.agent.put(`/tickets/${t.id}`, { status: "pending", userId: null });
    assert.equal(returned.status, 200);
    assert.equal(returned.body.status, "pending");
    assert.equal(returned.body.userId, null);

    await d.agent.put(`/tickets/${t.id}`, { status: "open", userId: d.agentId });
    const supervisorId = server.demo!.logins.find((l) => l.role === "supervisor")!.id;
    const transferred = await d.agent.put(`/tickets/${t.id}`, {
      queueId: d.sales,
      userId: supervisorId,
      status: "open",
    });
    assert.equal(transferred.status, 200);
    assert.equal(transferred.body.queueId, d.sales);
    assert.equal(transferred.body.userId, supervisorId);
    assert.equal(transferred.body.status, "open");
    // The agent lost the ticket (another user's, another queue).
    assert.equal((await d.agent.get(`/tickets/${t.id}`)).status, 403);

    const toQueue = await d.supervisor.put(`/tickets/${t.id}`, { queueId: d.support, userId: null, status: "pending" });
    assert.equal(toQueue.body.status, "pending");
    assert.equal(toQueue.body.userId, null);
    assert.equal(toQueue.body.queueId, d.support);

    const noQueue = await d.supervisor.put(`/tickets/${t.id}`, { status: "open" });
    assert.equal(noQueue.status, 200);
    const noQueueTransfer = await d.supervisor.put(`/tickets/${t.id}`, { userId: d.agentId });
    assert.equal(noQueueTransfer.status, 400);
    assert.equal(noQueueTransfer.body.fields.queueId, "Selecione uma fila");

    const resolved = await d.supervisor.put(`/tickets/${t.id}`, { status: "closed", sendFarewellMessage: false });
    assert.equal(resolved.status, 200);
    assert.equal(resolved.body.status, "closed");
    assert.equal(typeof resolved.body.closedAt, "string");

    const reopened = await d.admin.put(`/tickets/${t.id}`, { status: "open" });
    assert.equal(reopened.status, 200);
    assert.equal(reopened.body.status, "open");
    assert.equal(reopened.body.closedAt, null);
  });
});

Deno.test("PUT /tickets/{id} closes a pending ticket and refuses an invalid transition", async () => {
  await withServer(async (server) => {
    const d = await demo(server);
    const t = await inboundTicket(server, d.companyId, { queueId: d.support });
    const closed = await d.agent.put(`/tickets/${t.id}`, { status: "closed" });
    assert.equal(closed.status, 200);
    assert.equal(closed.body.status, "closed");
    const back = await d.agent.put(`/tickets/${t.id}`, { status: "pending" });
    assert.equal(back.status, 409);
    assert.equal(back.body.error, "ERR_CONFLICT");
  });
});

Deno.test("PUT /tickets/{id} requires a rating to resolve when userRating is on", async () => {
  await withServer(async (server) => {
    const d = await demo(server);
    await setSettings(server, d.companyId, { userRating: "enabled" });
    const t = await inboundTicket(server, d.companyId, { queueId: d.support });
    await d.agent.put(`/tickets/${t.id}`, { status: "open" });
    const missing = await d.agent.put(`/tickets/${t.id}`, { status: "closed" });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.message, "Avaliação obrigatória");
    // The close dialog picks one of the company's surveys (GET /ratings/list).
    const survey = await d.agent.post("/ratings", { name: "NPS", message: "Nota?", options: [{ name: "Boa", value: 5 }] });
    assert.equal((await d.agent.put(`/tickets/${t.id}`, { status: "closed", ratingId: survey.body.id + 100 })).status, 404);
    const rated = await d.agent.put(`/tickets/${t.id}`, { status: "closed", ratingId: survey.body.id });
    assert.equal(rated.status, 200);
    assert.equal(rated.body.ratingId, survey.body.id);
  });
});

Deno.test("PUT /tickets/{id} enforces the opening rules for a plain user", async () => {
  await withServer(async (server) => {
    const d = await demo(server);
    const colleague = await makeUser(server, d.companyId, { queueIds: [d.support] });

    // Pending ticket of a queue the agent is not in.
    const sales = await inboundTicket(server, d.companyId, { queueId: d.sales });
    const refused = await d.agent.put(`/tickets/${sales.id}`, { status: "open" });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error, "ERR_NO_PERMISSION");
    assert.equal(refused.body.message, "Atendimento em uso por outro setor!");
    assert.equal((await d.agent.get(`/tickets/${sales.id}`)).status, 403);
    assert.equal((await d.agent.get(`/tickets/u/${sales.uuid}`)).body.message, "Atendimento em uso por outro setor!");

    // Another user's open ticket: not taken, not resolved, not returned by a plain user.
    const mine = await inboundTicket(server, d.companyId, { queueId: d.support });
    assert.equal((await colleague.client.put(`/tickets/${mine.id}`, { status: "open" })).status, 200);
    for (const body of [{ status: "open" }, { status: "closed" }, { status: "pending" }]) {
      const r = await d.agent.put(`/tickets/${mine.id}`, body);
      assert.equal(r.status, 403, JSON.stringify(body));
    }
    assert.equal((await d.agent.get(`/tickets/${mine.id}`)).status, 403);
    // A manager may act on it.
    assert.equal((await d.supervisor.get(`/tickets/${mine.id}`)).status, 200);
    assert.equal((await d.supervisor.put(`/tickets/${mine.id}`, { status: "pending" })).status, 200);

    // A group ticket of another user can be taken.
    await setSettings(server, d.companyId, { viewgroups: "enabled" });
    const group = await inboundTicket(server, d.companyId, { queueId: d.support, isGroup: true });
    assert.equal((await colleague.client.put(`/tickets/${group.id}`, { status: "open" })).status, 200);
    const taken = await d.agent.put(`/tickets/${group.id}`, { status: "open" });
    assert.equal(taken.status, 200);
    assert.equal(taken.body.userId, d.agentId);
  });
});

Deno.test("PUT /tickets/{id} unreadMessages marks as unread and read", async () => {
  await withServer(async (server) => {
    const d = await demo(server);
    const t = await inboundTicket(server, d.companyId, { queueId: d.support });
    const unread = await d.agent.put(`/tickets/${t.id}`, { unreadMessages: 1 });
    assert.equal(unread.status, 200);
    assert.equal(unread.body.unreadMessages, 1);
    assert.equal(unread.body.status, "pending");
    const read = await d.agent.put(`/tickets/${t.id}`, { unreadMessages: 0 });
    assert.equal(read.body.unreadMessages, 0);
  });
});

Deno.test("DELETE /tickets/{id} is for managers; the ticket and its messages are gone after", async () => {
  await withServer(async (server) => {
    const d = await demo(server);
    const t = await inboundTicket(server, d.companyId, { queueId: d.support });
    await sendSystemMessage(server.deps, d.companyId, t.id, "Mensagem que some com o ticket");
    assert.equal((await pageOfMessages(server.deps.system, d.companyId, t.id, 1, 10)).messages.length, 1);
    const refused = await d.agent.delete(`/tickets/${t.id}`);
    assert.equal(refused.status, 403);
    const deleted = await d.supervisor.delete(`/tickets/${t.id}`);
    assert.equal(deleted.status, 200);
    assert.equal((await d.admin.get(`/tickets/${t.id}`)).status, 404);
    assert.equal(await getTicket(server.deps.system, d.companyId, t.id), undefined);
    assert.equal((await pageOfMessages(server.deps.system, d.companyId, t.id, 1, 10)).messages.length, 0);
    assert.equal((await d.admin.delete(`/tickets/${t.id}`)).status, 404);
  });
});
