import assert from "node:assert/strict";
import type { BusEvent } from "../domain/events.ts";
import { getTicket, markTicketRead, openTicketForInbound } from "../actors/tickets/mod.ts";
import { withServer } from "./helpers/server.ts";
import { createTenant } from "./helpers/tenants.ts";
import { defaultConnection, inboundTicket, makeContact, makeUser } from "./helpers/fixtures.ts";

Deno.test("PUT /tickets/{id}: 50 concurrent accepts by different users have exactly one winner", async () => {
  await withServer(async (server) => {
    const companyId = server.demo!.companyId;
    const [support] = server.demo!.queueIds;
    const agents = await Promise.all(
      Array.from({ length: 50 }, () => makeUser(server, companyId, { queueIds: [support] })),
    );
    const t = await inboundTicket(server, companyId, { queueId: support });
    const results = await Promise.all(
      agents.map((a) => a.client.put(`/tickets/${t.id}`, { status: "open", userId: a.user.id })),
    );
    const winners = results.filter((r) => r.status === 200);
    assert.equal(winners.length, 1);
    for (const r of results) if (r.status !== 200) assert.equal(r.status, 403);
    const stored = await getTicket(server.deps.system, companyId, t.id);
    assert.equal(stored!.status, "open");
    assert.equal(stored!.userId, winners[0].body.userId);
  });
});

Deno.test("openTicketForInbound() opens one ticket for concurrent messages of one contact", async () => {
  await withServer(async (server) => {
    const companyId = server.demo!.companyId;
    const conn = await defaultConnection(server, companyId);
    const contact = await makeContact(server, companyId);
    const replies = await Promise.all(Array.from({ length: 30 }, () =>
      openTicketForInbound(server.deps.system, companyId, {
        contactId: contact.id,
        whatsappId: conn.id,
        isGroup: false,
        fromMe: false,
      })
    ));
    assert.equal(new Set(replies.map((r) => r.ticket.id)).size, 1);
    assert.equal(replies.filter((r) => r.created).length, 1);
    assert.equal(replies[0].ticket.status, "pending");
  });
});

Deno.test("PUT /tickets/multiUpdate applies ticket by ticket and reports the failures", async () => {
  await withServer(async (server) => {
    const companyId = server.demo!.companyId;
    const [support, sales] = server.demo!.queueIds;
    const agent = await server.login("agent@demo.local");
    const mine = await inboundTicket(server, companyId, { queueId: support });
    const theirs = await inboundTicket(server, companyId, { queueId: sales });
    const r = await agent.put("/tickets/multiUpdate", {
      ticketIds: [mine.id, theirs.id, 987654],
      status: "open",
    });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.updated, [mine.id]);
    assert.deepEqual(r.body.failed, [
      { id: theirs.id, error: "ERR_NO_PERMISSION", message: "Atendimento em uso por outro setor!" },
      { id: 987654, error: "ERR_NO_TICKET_FOUND", message: "Ticket 987654 does not exist" },
    ]);
    assert.equal((await getTicket(server.deps.system, companyId, mine.id))!.status, "open");
    assert.equal((await getTicket(server.deps.system, companyId, theirs.id))!.status, "pending");
    const empty = await agent.put("/tickets/multiUpdate", { ticketIds: [] });
    assert.equal(empty.status, 400);
  });
});

Deno.test("ticket calls of another company answer 404 and lists never mix companies", async () => {
  await withServer(async (server) => {
    const companyId = server.demo!.companyId;
    const t = await inboundTicket(server, companyId, { queueId: null });
    const tenant = await createTenant(server, "Outra Empresa");
    const other = tenant.admin;
    assert.equal((await other.get(`/tickets/${t.id}`)).status, 404);
    assert.equal((await other.get(`/tickets/u/${t.uuid}`)).status, 404);
    assert.equal((await other.put(`/tickets/${t.id}`, { status: "open" })).status, 404);
    assert.equal((await other.delete(`/tickets/${t.id}`)).status, 404);
    const list = await other.get("/tickets?showAll=true");
    assert.equal(list.body.count, 0);
    const contact = await makeContact(server, companyId);
    const foreign = await other.post("/tickets", { contactId: contact.id });
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.error, "ERR_NO_CONTACT_FOUND");
  });
});

Deno.test("ticket changes publish update, removeFromList, updateUnread and delete with ticket scope", async () => {
  await withServer(async (server) => {
    const companyId = server.demo!.companyId;
    const [support] = server.demo!.queueIds;
    const events: BusEvent[] = [];
    server.deps.bus.subscribe((e) => {
      if (e.channel === `company-${companyId}-ticket`) events.push(e);
    });
    const agent = await server.login("agent@demo.local");
    const admin = await server.login("admin@demo.local");
    const t = await inboundTicket(server, companyId, { queueId: support });
    const created = events.at(-1)!;
    assert.equal((created.data as { action: string }).action, "update");
    assert.deepEqual(created.scope, {
      kind: "ticket", ticketId: t.id, queueId: support, userId: null, isGroup: false, status: "pending",
    });
    events.length = 0;
    await agent.put(`/tickets/${t.id}`, { status: "open" });
    assert.deepEqual(events.map((e) => (e.data as { action: string }).action), ["removeFromList", "update"]);
    assert.equal((events[0].scope as { status: string }).status, "pending");
    assert.equal((events[1].scope as { status: string }).status, "open");
    const item = (events[1].data as { ticket: { id: number; contact: unknown; status: string } }).ticket;
    assert.equal(item.id, t.id);
    assert.equal(item.status, "open");
    assert.ok(item.contact);
    await agent.put(`/tickets/${t.id}`, { unreadMessages: 3 });
    events.length = 0;
    await markTicketRead(server.deps.system, companyId, t.id);
    assert.deepEqual(events.map((e) => e.data), [{ action: "updateUnread", ticketId: t.id }]);
    events.length = 0;
    await admin.delete(`/tickets/${t.id}`);
    assert.deepEqual(events.map((e) => e.data), [{ action: "delete", ticketId: t.id }]);
  });
});
