/** GET/POST /messages/{ticketId} and /messages-ghost over real HTTP (spec 000 §7 "Messages"). */
import assert from "node:assert/strict";
import { withServer } from "./helpers/server.ts";
import { inboundTicket, makeConnection, makeContact, setSettings } from "./helpers/fixtures.ts";
import { freshNumber, inboundText, receive } from "./helpers/messages.ts";

Deno.test("GET /messages/{ticketId} pages newest first, 20 per page, each page oldest to newest", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const number = freshNumber();
    let ticketId = 0;
    for (let i = 1; i <= 45; i++) ticketId = (await receive(server, inboundText(number, `m${i}`))).ticketId;

    const page1 = await admin.get(`/messages/${ticketId}`);
    assert.equal(page1.status, 200, JSON.stringify(page1.body));
    assert.equal(page1.body.count, 45);
    assert.equal(page1.body.hasMore, true);
    assert.deepEqual(
      page1.body.messages.map((m: { body: string }) => m.body),
      Array.from({ length: 20 }, (_, i) => `m${26 + i}`),
    );
    assert.equal(page1.body.ticket.id, ticketId);
    assert.equal(page1.body.messages[0].contact.name, `Cliente ${number.slice(-4)}`);
    assert.equal(typeof page1.body.messages[0].createdAt, "string");

    const page2 = await admin.get(`/messages/${ticketId}?pageNumber=2`);
    assert.deepEqual(
      page2.body.messages.map((m: { body: string }) => m.body),
      Array.from({ length: 20 }, (_, i) => `m${6 + i}`),
    );
    assert.equal(page2.body.hasMore, true);

    const page3 = await admin.get(`/messages/${ticketId}?pageNumber=3`);
    assert.deepEqual(page3.body.messages.map((m: { body: string }) => m.body), [
      "m1",
      "m2",
      "m3",
      "m4",
      "m5",
    ]);
    assert.equal(page3.body.hasMore, false);

    assert.equal((await admin.get(`/messages/999999`)).status, 404);
  });
});

Deno.test("GET /messages resets unread; GET /messages-ghost reads without resetting and needs the spy permission", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const supervisor = await server.login("supervisor@demo.local");
    const agent = await server.login("agent@demo.local");
    const number = freshNumber();
    let ticketId = 0;
    for (const body of ["a", "b", "c"]) {
      ticketId = (await receive(server, inboundText(number, body))).ticketId;
    }
    assert.equal((await admin.get(`/tickets/${ticketId}`)).body.unreadMessages, 3);

    const ghost = await supervisor.get(`/messages-ghost/${ticketId}`);
    assert.equal(ghost.status, 200);
    assert.equal(ghost.body.messages.length, 3);
    assert.equal(ghost.body.ticket.unreadMessages, 3);
    assert.equal((await admin.get(`/tickets/${ticketId}`)).body.unreadMessages, 3);

    assert.equal((await agent.get(`/messages-ghost/${ticketId}`)).status, 403);

    const read = await admin.get(`/messages/${ticketId}`);
    assert.equal(read.body.ticket.unreadMessages, 0);
    assert.equal((await admin.get(`/tickets/${ticketId}`)).body.unreadMessages, 0);
  });
});

Deno.test("GET /messages refuses a plain user the messages of another queue's ticket", async () => {
  await withServer(async (server) => {
    const companyId = server.demo!.companyId;
    const [, sales] = server.demo!.queueIds;
    const agent = await server.login("agent@demo.local");
    const contact = await makeContact(server, companyId);
    const ticket = await inboundTicket(server, companyId, { contact, queueId: sales });
    await receive(server, inboundText(contact.number, "segredo de vendas"));
    const refused = await agent.get(`/messages/${ticket.id}`);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error, "ERR_NO_PERMISSION");
  });
});

Deno.test("POST /messages/{ticketId} stores ack 0 with the signature prefix when sendSignMessage is on", async () => {
  await withServer(async (server) => {
    const companyId = server.demo!.companyId;
    const admin = await server.login("admin@demo.local");
    const { ticketId } = await receive(server, inboundText(freshNumber(), "oi"));
    assert.equal((await admin.put(`/tickets/${ticketId}`, { status: "open" })).status, 200);

    const signed = await admin.post(`/messages/${ticketId}`, { body: "  Olá, tudo bem?  " });
    assert.equal(signed.status, 200, JSON.stringify(signed.body));
    assert.equal(signed.body.message.body, "*Ana Admin:*\nOlá, tudo bem?");
    assert.equal(signed.body.message.fromMe, true);
    assert.equal(signed.body.message.ack, 0);
    assert.equal(signed.body.message.userId, (await admin.get("/auth/me")).body.id);

    const unsigned = await admin.post(`/messages/${ticketId}`, {
      body: "sem assinatura",
      signMessage: false,
    });
    assert.equal(unsigned.body.message.body, "sem assinatura");

    await setSettings(server, companyId, { sendSignMessage: "disabled" });
    const off = await admin.post(`/messages/${ticketId}`, { body: "setting off" });
    assert.equal(off.body.message.body, "setting off");

    const page = await admin.get(`/messages/${ticketId}`);
    const bodies = page.body.messages.map((m: { body: string }) => m.body);
    assert.deepEqual(bodies, ["oi", "*Ana Admin:*\nOlá, tudo bem?", "sem assinatura", "setting off"]);
    assert.equal((await admin.get(`/tickets/${ticketId}`)).body.lastMessage, "setting off");
  });
});

Deno.test("POST /messages/{ticketId} quotes a message of the same ticket and expands it", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const first = await receive(server, inboundText(freshNumber(), "qual o preço?"));
    await admin.put(`/tickets/${first.ticketId}`, { status: "open" });
    const reply = await admin.post(`/messages/${first.ticketId}`, {
      body: "R$ 10",
      quotedMsg: { id: first.messageId, body: "qual o preço?" },
      signMessage: false,
    });
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.body.message.quotedMsg, {
      id: first.messageId,
      body: "qual o preço?",
      fromMe: false,
      mediaType: "chat",
    });
  });
});

Deno.test("POST /messages/{ticketId} refuses blank text, pending and closed tickets, and a connection that is down", async () => {
  await withServer(async (server) => {
    const companyId = server.demo!.companyId;
    const admin = await server.login("admin@demo.local");
    const { ticketId } = await receive(server, inboundText(freshNumber(), "oi"));

    const pending = await admin.post(`/messages/${ticketId}`, { body: "olá" });
    assert.equal(pending.status, 400);
    assert.equal(pending.body.error, "ERR_CREATING_MESSAGE");

    await admin.put(`/tickets/${ticketId}`, { status: "open" });
    const blank = await admin.post(`/messages/${ticketId}`, { body: "   \n " });
    assert.equal(blank.status, 400);
    assert.equal(blank.body.error, "ERR_VALIDATION");
    assert.equal((await admin.post(`/messages/${ticketId}`, {})).status, 400);

    await admin.put(`/tickets/${ticketId}`, { status: "closed" });
    const closed = await admin.post(`/messages/${ticketId}`, { body: "olá" });
    assert.equal(closed.status, 400);
    assert.equal(closed.body.error, "ERR_CREATING_MESSAGE");

    const down = await makeConnection(server, companyId, { status: "DISCONNECTED", isDefault: false });
    const offline = await inboundTicket(server, companyId, { whatsappId: down.id });
    await admin.put(`/tickets/${offline.id}`, { status: "open" });
    const refused = await admin.post(`/messages/${offline.id}`, { body: "olá" });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error, "ERR_WAPP_NOT_INITIALIZED");
    assert.equal((await admin.get(`/messages/${offline.id}`)).body.count, 0);
  });
});
