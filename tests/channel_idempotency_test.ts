/**
 * Exactly-once per provider for keyed sends (campaigns, issue #19): Baileys sends under a
 * message id derived from the key, so a resend after a crash repeats the same WhatsApp id;
 * the Cloud API adapter keeps a ledger per key that Graph's answer or a status webhook
 * (`biz_opaque_callback_data`) completes, holds a repeat of an unrecorded attempt until its
 * status arrives or the grace passes, and forgets attempts Graph refused.
 */
import assert from "node:assert/strict";
import type { AdapterEvent } from "../domain/channel.ts";
import type { Whatsapp } from "../domain/whatsapp.ts";
import { BaileysAdapter, baileysMessageId } from "../server/channels/baileys.ts";
import { CloudApiAdapter } from "../server/channels/cloudapi.ts";
import { CLOUD_RESEND_GRACE_MS, cloudKeyedKey, type CloudKeyedEntry } from "../server/channels/cloudapi_keyed.ts";
import { fakeFactory } from "./helpers/fake_baileys.ts";
import { fakeGraph, notification, status, textMessage } from "./helpers/fake_graph.ts";

const KEY = "cmp-1-7-42-m";

/** A connected Baileys adapter on a fake socket, over `kv` (a restart reuses the store). */
async function fakeBaileys(shared?: Deno.Kv) {
  const kv = shared ?? await Deno.openKv(":memory:");
  const fake = fakeFactory();
  const adapter = new BaileysAdapter({ companyId: 1, whatsappId: 2, kv, record: {} as Whatsapp, emit: () => {} }, fake.factory);
  await adapter.start();
  const sock = fake.sockets[0];
  sock.open("5511999990000");
  return { kv, adapter, sock, close: async () => (await adapter.stop(), shared ? undefined : kv.close()) };
}

Deno.test("baileysMessageId: Baileys' id shape, the same for the same key, different for another", () => {
  const id = baileysMessageId(KEY);
  assert.match(id, /^3EB0[0-9A-F]{18}$/);
  assert.equal(baileysMessageId(KEY), id);
  assert.notEqual(baileysMessageId("cmp-1-7-42-c"), id);
  assert.notEqual(baileysMessageId("cmp-1-7-43-m"), id);
});

Deno.test("BaileysAdapter: a keyed send goes out under the key's id, again after a 'crash'; unkeyed sends keep Baileys' ids", async () => {
  const t = await fakeBaileys();
  try {
    const message = { to: "5521988887777", isGroup: false, body: "Oi Ana", idempotencyKey: KEY };
    const first = await t.adapter.sendText(message);
    assert.equal(first.providerId, baileysMessageId(KEY));
    // A new adapter (the restarted server) sends the same key again: the same WhatsApp id.
    const again = await fakeBaileys(t.kv);
    const second = await again.adapter.sendText(message);
    await again.close();
    assert.equal(second.providerId, first.providerId);
    assert.deepEqual((again.sock.sent[0].options as { messageId?: string }).messageId, first.providerId);
    // Media and a quoted reply keep their options beside the id.
    await t.adapter.sendText({ ...message, quotedProviderId: "Q1", idempotencyKey: "cmp-1-7-43-m" });
    const quoted = t.sock.sent[1].options as { messageId?: string; quoted?: { key: { id: string } } };
    assert.equal(quoted.messageId, baileysMessageId("cmp-1-7-43-m"));
    assert.equal(quoted.quoted?.key.id, "Q1");
    const plain = await t.adapter.sendText({ to: "5521988887777", isGroup: false, body: "sem chave" });
    assert.equal((t.sock.sent[2].options as { messageId?: string } | undefined)?.messageId, undefined);
    assert.notEqual(plain.providerId, first.providerId);
  } finally {
    await t.close();
  }
});

Deno.test("CloudApiAdapter: one Graph send per key, completed by the status webhook after a crash, resent only after the grace", async () => {
  const graph = fakeGraph();
  const kv = await Deno.openKv(":memory:");
  const events: AdapterEvent[] = [];
  const record = {
    id: 3,
    companyId: 1,
    number: "",
    cloudPhoneNumberId: graph.phoneNumberId,
    cloudWabaId: graph.wabaId,
    cloudAccessToken: graph.state.accessToken,
    cloudAppSecret: "secret",
  } as unknown as Whatsapp;
  const build = () => new CloudApiAdapter({ companyId: 1, whatsappId: 3, kv, record, emit: (e) => events.push(e) }, { baseUrl: graph.baseUrl, load: () => Promise.resolve(record) });
  const customer = "5511988887777";
  const ids = { phoneNumberId: graph.phoneNumberId, wabaId: graph.wabaId };
  const entry = async (key: string) => (await kv.get<CloudKeyedEntry>(cloudKeyedKey(1, 3, key))).value;
  const sends = () => graph.sends().filter((c) => c.body?.type === "text");
  try {
    const adapter = build();
    await adapter.start();
    // The customer wrote: the 24-hour window is open.
    await adapter.handleWebhook(notification(ids, { contacts: [{ wa_id: customer, name: "Ana" }], messages: [textMessage(customer, "wamid.IN1", "oi")] }));
    const message = { to: customer, isGroup: false, body: "Promoção", idempotencyKey: KEY };

    // The key rides in the request; a repeat answers the same wamid without a second POST.
    const first = await adapter.sendText(message);
    assert.equal(sends().length, 1);
    assert.equal(sends()[0].body.biz_opaque_callback_data, KEY);
    assert.deepEqual(await adapter.sendText(message), first);
    assert.equal(sends().length, 1, "a repeat of a recorded key is not sent again");

    // Crash after Graph accepted, before the wamid was recorded: only the attempt marker is left.
    const lost = "cmp-1-7-44-m";
    await kv.set(cloudKeyedKey(1, 3, lost), { providerId: null, attemptAt: Date.now() } satisfies CloudKeyedEntry);
    const restarted = build();
    await restarted.start();
    await assert.rejects(restarted.sendText({ ...message, idempotencyKey: lost }), /waiting for its status/);
    assert.equal(sends().length, 1, "held while the first attempt's status may still come");
    // Meta's `sent` status names the key: the repeat answers that wamid, still nothing sent.
    await restarted.handleWebhook(notification(ids, { statuses: [{ ...status("wamid.LOST1", "sent", customer), biz_opaque_callback_data: lost }] }));
    assert.deepEqual(await restarted.sendText({ ...message, idempotencyKey: lost }), { providerId: "wamid.LOST1" });
    assert.equal(sends().length, 1);
    assert.ok(events.some((e) => e.type === "ack" && e.providerId === "wamid.LOST1"), "the status is still an ack");

    // No status within the grace: the first attempt is taken as lost and the message goes out.
    const silent = "cmp-1-7-45-m";
    await kv.set(cloudKeyedKey(1, 3, silent), { providerId: null, attemptAt: Date.now() - CLOUD_RESEND_GRACE_MS - 1 } satisfies CloudKeyedEntry);
    const resent = await restarted.sendText({ ...message, idempotencyKey: silent });
    assert.equal(sends().length, 2);
    assert.equal((await entry(silent))?.providerId, resent.providerId);

    // A refusal proves nothing went out (Graph's own, or the closed window): no marker holds the retry back.
    const refused = "cmp-1-7-46-m";
    await assert.rejects(restarted.sendText({ ...message, template: { name: "nao_existe", language: "pt_BR", params: [] }, idempotencyKey: refused }), /132001/);
    assert.equal(await entry(refused), null);
    const closed = "cmp-1-7-47-m";
    await assert.rejects(restarted.sendText({ ...message, to: "5511900000000", idempotencyKey: closed }), /only an approved template/);
    assert.equal(await entry(closed), null);
  } finally {
    kv.close();
    await graph.server.shutdown();
  }
});
