/**
 * The inbound path (issue #4): receiveInbound finds or creates the contact and the ticket,
 * stores the message once per provider id, counts unread and publishes `appMessage`.
 */
import assert from "node:assert/strict";
import { getMessage, receiveInbound } from "../actors/messages/mod.ts";
import { providerIndex } from "../actors/messages/context.ts";
import { legacyProviderKey, messageLogKey, messageLogPrefix } from "../actors/messages/keys.ts";
import { appendedEntries, isAppendedPart } from "../actors/_runtime/appended_log.ts";
import { getTicket } from "../actors/tickets/mod.ts";
import { withServer } from "./helpers/server.ts";
import { withTempDir } from "./helpers/temp.ts";
import { defaultConnection } from "./helpers/fixtures.ts";
import { freshNumber, inboundText, nextEvent, receive } from "./helpers/messages.ts";

Deno.test("receiveInbound() creates contact, ticket and message and publishes appMessage create", async () => {
  await withServer(async (server) => {
    const companyId = server.demo!.companyId;
    const number = freshNumber();
    const event = nextEvent(server, (e) => e.channel === `company-${companyId}-appMessage`);
    const first = await receive(server, inboundText(number, "Olá, preciso de ajuda", { name: "Maria" }));
    assert.equal(first.duplicate, false);
    assert.equal(first.contactCreated, true);
    assert.equal(first.ticketCreated, true);

    const published = await event;
    // deno-lint-ignore no-explicit-any -- event payloads are plain JSON
    const data = published.data as any;
    assert.equal(data.action, "create");
    assert.equal(data.message.id, first.messageId);
    assert.equal(data.message.body, "Olá, preciso de ajuda");
    assert.equal(data.message.fromMe, false);
    assert.equal(data.ticket.id, first.ticketId);
    assert.equal(data.ticket.status, "pending");
    assert.equal(data.ticket.lastMessage, "Olá, preciso de ajuda");
    assert.equal(data.contact.name, "Maria");
    assert.equal(published.scope.kind, "ticket");

    const second = await receive(server, inboundText(number, "alguém?"));
    assert.equal(second.ticketId, first.ticketId);
    assert.equal(second.contactCreated, false);
    assert.equal(second.ticketCreated, false);
    const ticket = await getTicket(server.deps.system, companyId, first.ticketId);
    assert.equal(ticket?.unreadMessages, 2);
    assert.equal(ticket?.lastMessage, "alguém?");
  });
});

Deno.test("receiveInbound() stores a message delivered twice once, sequentially and concurrently", async () => {
  await withServer(async (server) => {
    const companyId = server.demo!.companyId;
    const admin = await server.login("admin@demo.local");
    const msg = inboundText(freshNumber(), "uma vez só");
    const first = await receive(server, msg);
    const again = await receive(server, { ...msg, body: "changed copy" });
    assert.equal(again.duplicate, true);
    assert.equal(again.messageId, first.messageId);

    const burst = inboundText(freshNumber(), "rajada");
    const results = await Promise.all(Array.from({ length: 10 }, () => receive(server, burst)));
    assert.equal(results.filter((r) => !r.duplicate).length, 1);
    assert.equal(new Set(results.map((r) => r.messageId)).size, 1);
    assert.equal((await getTicket(server.deps.system, companyId, results[0].ticketId))?.unreadMessages, 1);

    const page = await admin.get(`/messages/${first.ticketId}`);
    assert.equal(page.body.count, 1);
    const burstPage = await admin.get(`/messages/${results[0].ticketId}`);
    assert.equal(burstPage.body.count, 1);
  });
});

/** The company's message log as id → provider id, whatever its entries' form. */
async function loggedEntries(kv: Deno.Kv, companyId: number): Promise<Map<string, unknown>> {
  const logged = new Map<string, unknown>();
  for await (const entry of kv.list({ prefix: messageLogPrefix(companyId) })) {
    for (const [id, value] of appendedEntries(entry, 2)) logged.set(id, value);
  }
  return logged;
}

/** Rewrites the company's message log without the entries of `ids`. */
async function dropLogEntries(kv: Deno.Kv, companyId: number, ids: string[]): Promise<void> {
  for await (const entry of kv.list({ prefix: messageLogPrefix(companyId) })) {
    const kept = [...appendedEntries(entry, 2)].filter(([id]) => !ids.includes(id));
    if (kept.length === 0) await kv.delete(entry.key);
    else if (isAppendedPart(entry.key[2])) await kv.set(entry.key, kept.flat());
  }
}

Deno.test("receiveInbound() knows a message stored before a restart once the provider index is built from the store", async () => {
  await withTempDir("balcao_provider_index_", async (dir) => {
    const kvPath = `${dir}/store.kv`;
    const old = inboundText(freshNumber(), "antes do reinício");
    const older = inboundText(freshNumber(), "de um armazém anterior ao registro");
    const inBatch = inboundText(freshNumber(), "no valor do seu commit");
    let companyId = 0;
    let first;
    let legacy;
    let batched;
    await withServer(async (server) => {
      companyId = server.demo!.companyId;
      first = await receive(server, old);
      legacy = await receive(server, older);
      batched = await receive(server, inBatch);
      // A store written before the provider log held a `message_by_provider` entry instead,
      // and one written before commits appended their entries as one value held one entry
      // per key (actors/_runtime/appended_log.ts).
      const { kv } = server.deps;
      await dropLogEntries(kv, companyId, [legacy.messageId, first.messageId]);
      await kv.atomic()
        .set(legacyProviderKey(companyId, older.providerId), [legacy.ticketId, legacy.messageId])
        .set(messageLogKey(companyId, first.messageId), old.providerId)
        .commit();
    }, { kvPath });
    await withServer(async (server) => {
      // The first lookup waits for the company's scan, which reads the ids stored before.
      const again = await receive(server, { ...old, body: "copy" }, companyId);
      assert.ok(providerIndex(server.deps.system).ready(companyId));
      assert.equal(again.duplicate, true);
      assert.equal(again.messageId, first!.messageId);
      const olderAgain = await receive(server, { ...older, body: "copy" }, companyId);
      assert.equal(olderAgain.duplicate, true, "an older store's entry is read too");
      assert.equal(olderAgain.messageId, legacy!.messageId);
      const batchedAgain = await receive(server, { ...inBatch, body: "copy" }, companyId);
      assert.equal(batchedAgain.duplicate, true, "an entry inside its commit's value is read");
      assert.equal(batchedAgain.messageId, batched!.messageId);
      const fresh = inboundText(freshNumber(), "outra");
      const another = await receive(server, fresh, companyId);
      assert.equal(another.duplicate, false, "a new id is stored");
      assert.equal((await loggedEntries(server.deps.kv, companyId)).get(another.messageId), fresh.providerId);
    }, { kvPath, demo: "auto" });
  });
});

Deno.test("receiveInbound() 100 concurrent messages from 10 numbers open exactly 10 tickets", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const numbers = Array.from({ length: 10 }, () => freshNumber());
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => receive(server, inboundText(numbers[i % 10], `msg ${i}`))),
    );
    const tickets = new Set(results.map((r) => r.ticketId));
    assert.equal(tickets.size, 10);
    assert.equal(results.filter((r) => r.ticketCreated).length, 10);
    assert.equal(results.filter((r) => r.contactCreated).length, 10);
    assert.equal(new Set(results.map((r) => r.messageId)).size, 100);
    for (const ticketId of tickets) {
      const page = await admin.get(`/messages/${ticketId}`);
      assert.equal(page.body.count, 10);
    }
  });
});

Deno.test("receiveInbound() keeps a group as the contact and its sender as participant", async () => {
  await withServer(async (server) => {
    const companyId = server.demo!.companyId;
    const result = await receive(
      server,
      inboundText("120363000000000001", "bom dia, grupo", {
        isGroup: true,
        group: { id: "120363000000000001", name: "Clientes VIP" },
        participant: { number: "5511988887777", name: "João" },
        name: "João",
      }),
    );
    const ticket = await getTicket(server.deps.system, companyId, result.ticketId);
    assert.equal(ticket?.isGroup, true);
    const message = await getMessage(server.deps.kv, companyId, result.messageId);
    assert.deepEqual(message?.participant, { number: "5511988887777", name: "João" });
    const admin = await server.login("admin@demo.local");
    const page = await admin.get(`/messages/${result.ticketId}`);
    assert.equal(page.body.ticket.contact.name, "Clientes VIP");
  });
});

Deno.test("receiveInbound() joins a message sent from the company's phone as sent, without unread", async () => {
  await withServer(async (server) => {
    const companyId = server.demo!.companyId;
    const number = freshNumber();
    const first = await receive(server, inboundText(number, "oi"));
    const own = await receive(server, inboundText(number, "respondi pelo celular", { fromMe: true }));
    assert.equal(own.ticketId, first.ticketId);
    const message = await getMessage(server.deps.kv, companyId, own.messageId);
    assert.equal(message?.fromMe, true);
    assert.equal(message?.ack, 1);
    const ticket = await getTicket(server.deps.system, companyId, first.ticketId);
    assert.equal(ticket?.unreadMessages, 1);
    assert.equal(ticket?.lastMessage, "respondi pelo celular");
  });
});

Deno.test("receiveInbound() stores media bytes as a file and the quoted message by provider id", async () => {
  await withServer(async (server) => {
    const companyId = server.demo!.companyId;
    const conn = await defaultConnection(server, companyId);
    const number = freshNumber();
    const bytes = new TextEncoder().encode("%PDF-1.4 fake");
    const first = await receiveInbound(server.deps, companyId, conn.id, {
      ...inboundText(number, "segue o boleto"),
      mediaType: "application",
      media: { data: bytes, mimetype: "application/pdf", filename: "boleto.pdf" },
    });
    const stored = await getMessage(server.deps.kv, companyId, first.messageId);
    assert.ok(stored?.mediaUrl?.endsWith("-boleto.pdf"));
    const onDisk = await Deno.readFile(
      `${server.deps.config.dataDir}/company${companyId}/${stored!.mediaUrl}`,
    );
    assert.deepEqual(onDisk, bytes);

    const reply = await receive(
      server,
      inboundText(number, "recebeu?", { quotedProviderId: stored!.providerId! }),
    );
    const quoting = await getMessage(server.deps.kv, companyId, reply.messageId);
    assert.equal(quoting?.quotedMsgId, first.messageId);
  });
});
