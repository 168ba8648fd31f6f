/**
 * A message and its note on its ticket (preview, times, unread count, who wrote last) are one
 * KV atomic (actors/messages/store.ts `storeAndNote`, actors/_runtime/commit_link.ts): a crash
 * between two commits used to leave an agent's reply stored on a ticket that did not know the
 * agent wrote last, so its auto-close was never armed (tests/faults_kill_test.ts caught it).
 * A message to send is in the same atomic as its outbox entry too (issue #39). Here the server
 * runs on a KV that records the keys of every atomic it commits (`probeKv`).
 */
import assert from "node:assert/strict";
import { messageKey, outboxKey } from "../actors/messages/keys.ts";
import { ticketLatestKey } from "../actors/tickets/keys.ts";
import { freshNumber, inboundText, receive } from "./helpers/messages.ts";
import { withServer } from "./helpers/server.ts";
import { type ProbedKv, probeKv } from "../actors/_runtime/testing.ts";

Deno.test("a customer's message and an agent's reply are stored in the same atomic as their ticket's note", async () => {
  let probe: ProbedKv | undefined;
  await withServer(async (server) => {
    const companyId = server.demo!.companyId;
    const admin = await server.login("admin@demo.local");
    const adminId = server.demo!.logins.find((l) => l.email === "admin@demo.local")!.id;
    const atomics = probe!.setKeys;
    const together = (ticketId: number, messageId: string) =>
      atomics.some((keys) =>
        keys.has(JSON.stringify(messageKey(companyId, ticketId, messageId))) &&
        keys.has(JSON.stringify(ticketLatestKey(companyId, ticketId)))
      );

    const inbound = await receive(server, inboundText(freshNumber(), "Quero saber do pedido"));
    assert.equal(inbound.duplicate, false);
    assert.ok(together(inbound.ticketId, inbound.messageId), "the customer's message and its note");
    const ticket = (await admin.get(`/tickets/${inbound.ticketId}`)).body;
    assert.equal(ticket.lastMessage, "Quero saber do pedido");
    assert.equal(ticket.unreadMessages, 1);

    const accepted = await admin.put(`/tickets/${inbound.ticketId}`, { status: "open", userId: adminId });
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    const reply = await admin.post(`/messages/${inbound.ticketId}`, { body: "Qual o número?" });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const sent = (await admin.get(`/messages/${inbound.ticketId}`)).body.messages.at(-1);
    assert.equal(sent.fromMe, true);
    assert.ok(together(inbound.ticketId, sent.id), "the agent's reply and its note");
    // ... and its outbox entry (#39): a reply is never stored without being queued to send.
    const conn = (await admin.get(`/tickets/${inbound.ticketId}`)).body.whatsappId as number;
    assert.ok(
      atomics.some((keys) =>
        keys.has(JSON.stringify(messageKey(companyId, inbound.ticketId, sent.id))) &&
        keys.has(JSON.stringify(outboxKey({ companyId, whatsappId: conn, messageId: sent.id })))
      ),
      "the agent's reply and its outbox entry",
    );
    assert.match((await admin.get(`/tickets/${inbound.ticketId}`)).body.lastMessage, /Qual o número\?/);

    // A message delivered twice is stored once and noted once.
    const twice = inboundText(freshNumber(), "Oi");
    const first = await receive(server, twice);
    const copy = await receive(server, twice);
    assert.equal(copy.duplicate, true);
    assert.equal(copy.messageId, first.messageId);
    assert.equal((await admin.get(`/tickets/${first.ticketId}`)).body.unreadMessages, 1);
  }, { wrapKv: (kv) => (probe = probeKv(kv)).kv });
});
