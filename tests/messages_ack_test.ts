/** Delivery acks, send results and remote edits/deletes (spec 000 §4 "Message delivery"). */
import assert from "node:assert/strict";
import {
  applyAck,
  applyRemoteDelete,
  applyRemoteEdit,
  getMessage,
  recordSendResult,
  sendSystemMessage,
} from "../actors/messages/mod.ts";
import { applyChange } from "../actors/messages/change.ts";
import type { Message } from "../domain/message.ts";
import { withServer } from "./helpers/server.ts";
import { inboundTicket, makeConnection } from "./helpers/fixtures.ts";
import { freshNumber, inboundText, nextEvent, receive, sampleMessage } from "./helpers/messages.ts";

const base: Message = sampleMessage();

Deno.test("applyChange() raises acks only, records send results and failures, ignores repeats", () => {
  const acked = applyChange({ ...base, ack: 2 }, { type: "ack", ack: 3 }, 5)!;
  assert.equal(acked.ack, 3);
  assert.equal(applyChange(acked, { type: "ack", ack: 2 }, 6), null);
  assert.equal(applyChange(acked, { type: "ack", ack: 3 }, 6), null);

  const sent = applyChange(base, { type: "sent", providerId: "ABC" }, 5)!;
  assert.equal(sent.providerId, "ABC");
  assert.equal(sent.ack, 1);

  const retry = applyChange(base, { type: "sendFailed", error: "timeout", final: false }, 5)!;
  assert.equal(retry.failed, null);
  assert.equal(retry.sendAttempts, 1);
  const failed = applyChange(retry, { type: "sendFailed", error: "timeout", final: true }, 6)!;
  assert.deepEqual(failed.failed, { code: "ERR_SENDING_WAPP_MSG", attempts: 2 });

  const edited = applyChange(base, { type: "edit", body: "y" }, 5)!;
  assert.equal(edited.isEdited, true);
  assert.equal(applyChange(edited, { type: "edit", body: "y" }, 6), null);
  const deleted = applyChange(base, { type: "delete" }, 5)!;
  assert.equal(deleted.isDeleted, true);
  assert.equal(applyChange(deleted, { type: "delete" }, 6), null);
});

Deno.test("applyAck() only increases a stored message's ack and publishes the update", async () => {
  await withServer(async (server) => {
    const { system, kv } = server.deps;
    const companyId = server.demo!.companyId;
    const msg = inboundText(freshNumber(), "pelo celular", { fromMe: true });
    const { messageId } = await receive(server, msg);

    const update = nextEvent(server, (e) => (e.data as { action?: string }).action === "update");
    assert.equal((await applyAck(system, companyId, msg.providerId, 3))?.ack, 3);
    // deno-lint-ignore no-explicit-any -- event payloads are plain JSON
    const published = (await update).data as any;
    assert.equal(published.message.id, messageId);
    assert.equal(published.message.ack, 3);

    assert.equal(await applyAck(system, companyId, msg.providerId, 2), null);
    assert.equal((await getMessage(kv, companyId, messageId))?.ack, 3);
    assert.equal((await applyAck(system, companyId, msg.providerId, 5))?.ack, 5);
    assert.equal(await applyAck(system, companyId, "unknown-provider-id", 4), null);
  });
});

Deno.test("recordSendResult() records the provider id, applies an ack that came first, and marks a final failure", async () => {
  await withServer(async (server) => {
    const { system, kv } = server.deps;
    const companyId = server.demo!.companyId;
    const down = await makeConnection(server, companyId, { status: "DISCONNECTED", isDefault: false });
    const ticket = await inboundTicket(server, companyId, { whatsappId: down.id });

    // The connection is down: the channel records the send as failed for good.
    const message = await sendSystemMessage(server.deps, companyId, ticket.id, "Olá!");
    const failed = await getMessage(kv, companyId, message.id);
    assert.equal(failed?.ack, 0);
    assert.equal(failed?.failed?.code, "ERR_SENDING_WAPP_MSG");

    // An ack that arrives before the provider id is known is applied once it is.
    assert.equal(await applyAck(system, companyId, "WA-1", 3), null);
    const sent = await recordSendResult(system, companyId, ticket.id, message.id, { providerId: "WA-1" });
    assert.equal(sent?.providerId, "WA-1");
    assert.equal(sent?.ack, 3);
    assert.equal(sent?.failed, null);
  });
});

Deno.test("applyRemoteEdit() and applyRemoteDelete() change the message the provider id names", async () => {
  await withServer(async (server) => {
    const { system, kv } = server.deps;
    const companyId = server.demo!.companyId;
    const msg = inboundText(freshNumber(), "texto original");
    const { messageId } = await receive(server, msg);
    const edited = await applyRemoteEdit(system, companyId, msg.providerId, "texto editado");
    assert.equal(edited?.body, "texto editado");
    assert.equal(edited?.isEdited, true);
    await applyRemoteDelete(system, companyId, msg.providerId);
    const stored = await getMessage(kv, companyId, messageId);
    assert.equal(stored?.isDeleted, true);
    assert.equal(await applyRemoteEdit(system, companyId, "nope", "x"), null);
  });
});
