/** Edit, delete, forward, contact cards and in-ticket search over real HTTP (spec 000 §7). */
import assert from "node:assert/strict";
import { withServer } from "./helpers/server.ts";
import { messageKey } from "../actors/messages/mod.ts";
import { storedMessageOrNull } from "../actors/messages/stored.ts";
import { EDIT_WINDOW_MS, type Message } from "../domain/message.ts";
import { inboundTicket, makeContact } from "./helpers/fixtures.ts";
import { freshNumber, inboundText, nextEvent, receive } from "./helpers/messages.ts";

Deno.test("POST /messages/edit/{id} and PUT /messages/{id} edit the company's own messages only", async () => {
  await withServer(async (server) => {
    const companyId = server.demo!.companyId;
    const admin = await server.login("admin@demo.local");
    const inbound = await receive(server, inboundText(freshNumber(), "do cliente"));
    await admin.put(`/tickets/${inbound.ticketId}`, { status: "open" });
    const sent = await admin.post(`/messages/${inbound.ticketId}`, {
      body: "primeira versão",
      signMessage: false,
    });
    const id = sent.body.message.id;

    const update = nextEvent(
      server,
      (e) =>
        e.channel === `company-${companyId}-appMessage` &&
        (e.data as { action: string }).action === "update" &&
        (e.data as { message: { body: string } }).message.body === "segunda versão",
    );
    const edited = await admin.post(`/messages/edit/${id}`, { body: "segunda versão" });
    assert.equal(edited.status, 200, JSON.stringify(edited.body));
    assert.equal(edited.body.body, "segunda versão");
    assert.equal(edited.body.isEdited, true);
    await update;

    const put = await admin.put(`/messages/${id}`, { body: "terceira versão" });
    assert.equal(put.status, 200);
    assert.equal(put.body.body, "terceira versão");

    assert.equal((await admin.post(`/messages/edit/${id}`, { body: "   " })).status, 400);
    assert.equal(
      (await admin.post(`/messages/edit/${inbound.messageId}`, { body: "não é meu" })).status,
      400,
    );
    assert.equal((await admin.post(`/messages/edit/0000000000000000-99999`, { body: "x" })).status, 404);
  });
});

Deno.test("POST /messages/edit/{id} refuses a message WhatsApp sent more than 15 minutes ago", async () => {
  await withServer(async (server) => {
    const companyId = server.demo!.companyId;
    const admin = await server.login("admin@demo.local");
    const inbound = await receive(server, inboundText(freshNumber(), "do cliente"));
    await admin.put(`/tickets/${inbound.ticketId}`, { status: "open" });
    const sent = await admin.post(`/messages/${inbound.ticketId}`, { body: "enviada há muito", signMessage: false });
    const id = sent.body.message.id as string;
    // The simulator delivers it (the message gets its provider id); then it ages past the window.
    const key = messageKey(companyId, inbound.ticketId, id);
    let stored: Message | null = null;
    for (let i = 0; i < 100 && !stored?.providerId; i++) {
      stored = storedMessageOrNull((await server.deps.kv.get(key)).value);
      if (!stored?.providerId) await new Promise((r) => setTimeout(r, 20));
    }
    assert.ok(stored?.providerId, "the simulator delivered the message");
    await server.deps.kv.set(key, { ...stored, createdAt: Date.now() - EDIT_WINDOW_MS - 1000 });
    server.deps.system.passivateAll(); // drop the actor's cached copy
    const r = await admin.post(`/messages/edit/${id}`, { body: "tarde demais" });
    assert.equal(r.status, 400, JSON.stringify(r.body));
    assert.match(r.body.message, /15 minutes/);
    assert.equal(storedMessageOrNull((await server.deps.kv.get(key)).value)!.body, "enviada há muito");
  });
});

Deno.test("DELETE /messages/delete marks messages deleted; a plain user cannot delete in a hidden ticket", async () => {
  await withServer(async (server) => {
    const [, sales] = server.demo!.queueIds;
    const admin = await server.login("admin@demo.local");
    const agent = await server.login("agent@demo.local");
    const a = await receive(server, inboundText(freshNumber(), "apague isto"));
    const salesContact = await makeContact(server, server.demo!.companyId);
    await inboundTicket(server, server.demo!.companyId, { contact: salesContact, queueId: sales });
    const b = await receive(server, inboundText(salesContact.number, "e isto"));
    assert.equal((await admin.put(`/tickets/${b.ticketId}`, { status: "open" })).status, 200);

    const refused = await agent.delete("/messages/delete", { messages: [b.messageId] });
    assert.equal(refused.status, 403);

    const own = await admin.post(`/messages/${b.ticketId}`, { body: "enviei errado" });
    assert.equal(own.status, 200, JSON.stringify(own.body));
    const deleted = await admin.delete("/messages/delete", {
      messages: [a.messageId, b.messageId, own.body.message.id],
    });
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    assert.deepEqual(deleted.body.messages.map((m: { isDeleted: boolean }) => m.isDeleted), [
      true,
      true,
      true,
    ]);
    const page = await admin.get(`/messages/${a.ticketId}`);
    assert.equal(page.body.messages[0].isDeleted, true);
    assert.equal((await admin.delete("/messages/delete", { messages: [] })).status, 400);
  });
});

Deno.test("POST /messages/forward/send copies messages to each contact's ticket and needs a contact", async () => {
  await withServer(async (server) => {
    const companyId = server.demo!.companyId;
    const admin = await server.login("admin@demo.local");
    const source = await receive(server, inboundText(freshNumber(), "promoção de hoje"));
    const second = await receive(server, inboundText(freshNumber(), "e amanhã"));
    const [ana, bia] = [await makeContact(server, companyId), await makeContact(server, companyId)];

    const none = await admin.post("/messages/forward/send", { messages: [source.messageId], contacts: [] });
    assert.equal(none.status, 400);
    assert.equal(none.body.fields.contacts, "Selecione pelo menos um contato");

    const forwarded = await admin.post("/messages/forward/send", {
      messages: [source.messageId],
      contacts: [ana, { id: bia.id }],
    });
    assert.equal(forwarded.status, 200, JSON.stringify(forwarded.body));
    assert.equal(forwarded.body.tickets.length, 2);
    assert.equal(forwarded.body.sent, 2);
    for (const ticketId of forwarded.body.tickets) {
      const page = await admin.get(`/messages/${ticketId}`);
      assert.deepEqual(page.body.messages.map((m: { body: string; fromMe: boolean }) => [m.body, m.fromMe]), [
        ["promoção de hoje", true],
      ]);
    }
    assert.ok(second.messageId);
  });
});

Deno.test("POST /messages/sendContact/{ticketId} sends a vCard per contact", async () => {
  await withServer(async (server) => {
    const companyId = server.demo!.companyId;
    const admin = await server.login("admin@demo.local");
    const { ticketId } = await receive(server, inboundText(freshNumber(), "me passa o contato"));
    await admin.put(`/tickets/${ticketId}`, { status: "open" });
    const card = await makeContact(server, companyId, { name: "Carlos Técnico", number: "5511977776666" });
    const sent = await admin.post(`/messages/sendContact/${ticketId}`, { contactsId: [card.id] });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const [message] = sent.body.messages;
    assert.equal(message.mediaType, "contactMessage");
    assert.match(message.body, /^BEGIN:VCARD/);
    assert.match(message.body, /FN:Carlos Técnico/);
    assert.match(message.body, /waid=5511977776666/);
    assert.equal((await admin.get(`/tickets/${ticketId}`)).body.lastMessage, "Novo Contato recebido");
    assert.equal((await admin.post(`/messages/sendContact/${ticketId}`, { contactsId: [] })).status, 400);
  });
});

Deno.test("GET /messages/searchMessage/{ticketId} returns ids of matching messages, newest first, accents ignored", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const number = freshNumber();
    const a = await receive(server, inboundText(number, "Qual é o preço da entrega?"));
    await receive(server, inboundText(number, "obrigado"));
    const c = await receive(server, inboundText(number, "O PRECO mudou"));
    const found = await admin.get(`/messages/searchMessage/${a.ticketId}?searchedTerm=preço`);
    assert.equal(found.status, 200);
    assert.deepEqual(found.body.messagesIds, [c.messageId, a.messageId]);
    const none = await admin.get(`/messages/searchMessage/${a.ticketId}?searchedTerm=`);
    assert.deepEqual(none.body.messagesIds, []);
  });
});
