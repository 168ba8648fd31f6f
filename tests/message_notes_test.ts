/**
 * A message's note on its ticket survives a stop between the two commits (actors/tickets/notes.ts):
 * the message is stored by its conversation's actor, then noted by the ticket desk. The state a
 * kill leaves between them is made here for certain, by storing messages with the storing half
 * only (`appendMessage`, as the outbound and inbound paths do first) and stopping the server; the
 * next server on the same store must show them on their tickets and run the auto-close they
 * start. tests/faults_kill_test.ts kills at random moments; this pins the one window down.
 */
import assert from "node:assert/strict";
import { appendMessage } from "../actors/messages/store.ts";
import type { MessageDraft } from "../actors/messages/actor.ts";
import { noteDuePrefix } from "../actors/tickets/keys.ts";
import { deskState, getTicket, noteMessage } from "../actors/tickets/mod.ts";
import { eventually } from "./helpers/channels.ts";
import { defaultConnection } from "./helpers/fixtures.ts";
import { freshNumber, inboundText, receive } from "./helpers/messages.ts";
import { type TestServer, withServer } from "./helpers/server.ts";
import { withTempDir } from "./helpers/temp.ts";

/** A test minute: inatividade 5 closes a silent ticket after 2.5 s. */
const MINUTE = 500;
const CLOSE_TEXT = "Encerrado por inatividade.";

/** A message as the outbound (`fromMe`) or inbound path drafts it. */
function draft(contactId: number, body: string, fromMe: boolean): MessageDraft {
  return {
    contactId, body, fromMe, mediaType: "chat", mediaUrl: null, mediaName: null, mimetype: null,
    quotedMsgId: null, isDeleted: false, isEdited: false, ack: fromMe ? 0 : 1, read: fromMe,
    providerId: fromMe ? null : `P-${crypto.randomUUID()}`, participant: null, userId: null,
    failed: null, sendAttempts: 0,
  };
}

async function notesDue(server: TestServer, companyId: number): Promise<number> {
  return (await Array.fromAsync(server.deps.kv.list({ prefix: noteDuePrefix(companyId) }))).length;
}

Deno.test("messages stored by a server that stopped before noting them are noted by the next one, and start its auto-close", async () => {
  await withTempDir("balcao_notes_", async (dir) => {
    const kvPath = `${dir}/store.kv`;
    let companyId = 0;
    let waiting = 0; // open, the agent's reply stored but not noted: must close for the silence
    let unread = 0; // pending, the customer's message stored but not noted: one more unread
    await withServer(async (server) => {
      companyId = server.demo!.companyId;
      const admin = await server.login("admin@demo.local");
      const adminId = server.demo!.logins.find((l) => l.email === "admin@demo.local")!.id;
      const conn = await defaultConnection(server, companyId);
      const saved = await admin.put(`/whatsapp/${conn.id}`, { ...conn, inatividade: 5, closeMessage: CLOSE_TEXT });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));

      const customer = freshNumber();
      waiting = (await receive(server, inboundText(customer, "Quero saber do pedido"))).ticketId;
      unread = (await receive(server, inboundText(freshNumber(), "Bom dia"))).ticketId;
      const accepted = await admin.put(`/tickets/${waiting}`, { status: "open", userId: adminId });
      assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
      assert.equal((await admin.post(`/messages/${waiting}`, { body: "Olá!" })).status, 200);
      // The customer answers: the ticket waits on the agent again, nothing to close.
      assert.equal((await receive(server, inboundText(customer, "Ainda aí?"))).ticketId, waiting);
      assert.equal(await notesDue(server, companyId), 0, "a message noted owes its ticket nothing");

      // The stop's window: both messages durable, neither noted.
      const open = (await getTicket(server.deps.system, companyId, waiting))!;
      const pending = (await getTicket(server.deps.system, companyId, unread))!;
      await appendMessage(server.deps.system, companyId, waiting, draft(open.contactId, "Pode confirmar o número?", true));
      await appendMessage(server.deps.system, companyId, unread, draft(pending.contactId, "Alguém?", false));
      assert.equal(await notesDue(server, companyId), 2);
      assert.equal((await getTicket(server.deps.system, companyId, waiting))!.lastMessage, "Ainda aí?");
    }, { kvPath, timerMinuteMs: MINUTE });

    await withServer(async (server) => {
      const admin = await server.login("admin@demo.local");
      const seen = (await admin.get(`/tickets/${unread}`)).body;
      assert.equal(seen.lastMessage, "Alguém?");
      assert.equal(seen.unreadMessages, 2);
      const replied = (await admin.get(`/tickets/${waiting}`)).body;
      assert.equal(replied.lastMessage, "Pode confirmar o número?");
      assert.equal(replied.status, "open");
      assert.equal(await notesDue(server, companyId), 0);
      // The agent's reply was the last word: the customer's silence closes the ticket.
      const closed = await eventually(async () => {
        const t = (await admin.get(`/tickets/${waiting}`)).body;
        return t.status === "closed" ? t : undefined;
      }, 15_000, "auto-close after the recovered reply");
      assert.ok(Date.parse(closed.closedAt) - Date.parse(closed.createdAt) >= 5 * MINUTE);
      // The close message follows the close (sent once it is durable).
      await eventually(async () => {
        const messages = (await admin.get(`/messages/${waiting}`)).body.messages as { body: string }[];
        return messages.filter((m) => m.body === CLOSE_TEXT).length === 1 || undefined;
      }, 10_000, "the close message");
    }, { kvPath, demo: "auto", timerMinuteMs: MINUTE });
  });
});

Deno.test("a note that arrives after the desk's recovery applied it counts once", async () => {
  await withServer(async (server) => {
    const { system } = server.deps;
    const companyId = server.demo!.companyId;
    const ticketId = (await receive(server, inboundText(freshNumber(), "Oi"))).ticketId;
    const before = (await getTicket(system, companyId, ticketId))!;
    assert.equal(before.unreadMessages, 1);
    const { message } = await appendMessage(system, companyId, ticketId, draft(before.contactId, "Tem alguém?", false));
    // The desk is dropped and activated again while the sender has yet to note: recovery
    // notes the message first, and the sender's note then finds it done.
    assert.equal(system.evictWhere((kind, id) => kind === "ticket-desk" && id === String(companyId)), 1);
    await deskState(system, companyId);
    await eventually(async () => (await notesDue(server, companyId)) === 0 || undefined, 5_000, "recovered");
    const noted = await noteMessage(system, message!);
    assert.equal(noted.ticket.unreadMessages, 2);
    const after = (await getTicket(system, companyId, ticketId))!;
    assert.equal(after.unreadMessages, 2);
    assert.equal(after.lastMessage, "Tem alguém?");
    assert.equal(await notesDue(server, companyId), 0);
  });
});
