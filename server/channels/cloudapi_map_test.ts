import assert from "node:assert/strict";
import {
  ackOfCloudStatus,
  cloudMediaKind,
  extensionOf,
  mediaRequest,
  readNotification,
  readRequest,
  renderTemplate,
  templateInfo,
  templateRequest,
  textRequest,
  WINDOW_MS,
  windowOf,
} from "./cloudapi_map.ts";

const PHONE = "106540352242922";

const payload = (value: Record<string, unknown>, phone = PHONE) => ({
  object: "whatsapp_business_account",
  entry: [{ id: "1022", changes: [{ field: "messages", value: { messaging_product: "whatsapp", metadata: { display_phone_number: "5511955550000", phone_number_id: phone }, ...value } }] }],
});

Deno.test("readNotification: text with the sender's profile name, quote and time", () => {
  const { messages, statuses } = readNotification(payload({
    contacts: [{ profile: { name: "Maria" }, wa_id: "5521988887777" }],
    messages: [{ from: "5521988887777", id: "wamid.A", timestamp: "1700000000", type: "text", text: { body: "oi" }, context: { from: "5511955550000", id: "wamid.Q" } }],
  }), PHONE);
  assert.equal(statuses.length, 0);
  assert.deepEqual(messages[0].message, {
    providerId: "wamid.A",
    from: "5521988887777",
    name: "Maria",
    body: "oi",
    mediaType: "chat",
    fromMe: false,
    isGroup: false,
    quotedProviderId: "wamid.Q",
    timestamp: 1700000000000,
  });
  assert.equal(messages[0].mediaId, undefined);
});

Deno.test("readNotification: media carry their Graph id, type and a file name", () => {
  const { messages } = readNotification(payload({
    messages: [
      { from: "55219", id: "wamid.IMG", timestamp: "1", type: "image", image: { id: "777", mime_type: "image/jpeg", sha256: "x", caption: "foto" } },
      { from: "55219", id: "wamid.DOC", timestamp: "1", type: "document", document: { id: "778", mime_type: "application/pdf", filename: "nota.pdf" } },
      { from: "55219", id: "wamid.AUD", timestamp: "1", type: "audio", audio: { id: "779", mime_type: "audio/ogg; codecs=opus", voice: true } },
    ],
  }), PHONE);
  assert.deepEqual(messages.map((m) => [m.message.mediaType, m.message.body, m.mediaId, m.mimetype, m.filename]), [
    ["image", "foto", "777", "image/jpeg", "wamidIMG.jpg"],
    ["document", "", "778", "application/pdf", "nota.pdf"],
    ["audio", "", "779", "audio/ogg", "wamidAUD.ogg"],
  ]);
});

Deno.test("readNotification: reactions quote the reacted message; removals, system and unsupported kinds are dropped", () => {
  const { messages } = readNotification(payload({
    messages: [
      { from: "55219", id: "wamid.R1", timestamp: "1", type: "reaction", reaction: { message_id: "wamid.OUT", emoji: "👍" } },
      { from: "55219", id: "wamid.R2", timestamp: "1", type: "reaction", reaction: { message_id: "wamid.OUT" } },
      { from: "55219", id: "wamid.S", timestamp: "1", type: "system", system: { body: "changed number" } },
      { from: "55219", id: "wamid.U", timestamp: "1", type: "unsupported" },
      { from: "55219", id: "wamid.L", timestamp: "1", type: "location", location: { latitude: -23.5, longitude: -46.6, name: "Loja" } },
      { from: "55219", id: "wamid.B", timestamp: "1", type: "interactive", interactive: { type: "button_reply", button_reply: { id: "b1", title: "Sim" } } },
    ],
  }), PHONE);
  assert.deepEqual(messages.map((m) => [m.message.providerId, m.message.mediaType, m.message.body, m.message.quotedProviderId]), [
    ["wamid.R1", "reactionMessage", "👍", "wamid.OUT"],
    ["wamid.L", "locationMessage", "Loja\nhttps://maps.google.com/maps?q=-23.5,-46.6", undefined],
    ["wamid.B", "chat", "Sim", undefined],
  ]);
});

Deno.test("readNotification: statuses become acks or failures; other numbers and objects are ignored", () => {
  const { statuses } = readNotification(payload({
    statuses: [
      { id: "wamid.1", status: "sent", timestamp: "1", recipient_id: "55219" },
      { id: "wamid.1", status: "delivered", timestamp: "2", recipient_id: "55219" },
      { id: "wamid.1", status: "read", timestamp: "3", recipient_id: "55219" },
      { id: "wamid.2", status: "failed", timestamp: "3", recipient_id: "55219", errors: [{ code: 131047, title: "Re-engagement message" }] },
      { id: "wamid.3", status: "deleted", timestamp: "3", recipient_id: "55219" },
    ],
  }), PHONE);
  assert.deepEqual(statuses, [
    { providerId: "wamid.1", ack: 2 },
    { providerId: "wamid.1", ack: 3 },
    { providerId: "wamid.1", ack: 4 },
    { providerId: "wamid.2", failed: { code: 131047, title: "Re-engagement message" } },
  ]);
  const other = readNotification(payload({ messages: [{ from: "1", id: "x", type: "text", text: { body: "a" } }] }, "999"), PHONE);
  assert.equal(other.messages.length, 0);
  assert.deepEqual(readNotification({ object: "page", entry: [] }, PHONE), { messages: [], statuses: [] });
  assert.deepEqual(readNotification(null, PHONE), { messages: [], statuses: [] });
  assert.equal(ackOfCloudStatus("failed"), null);
});

Deno.test("request bodies of the messages endpoint", () => {
  assert.deepEqual(textRequest("5521", "olá", "wamid.Q"), {
    messaging_product: "whatsapp",
    recipient_type: "individual",
    to: "5521",
    context: { message_id: "wamid.Q" },
    type: "text",
    text: { preview_url: false, body: "olá" },
  });
  assert.equal(textRequest("5521", "veja https://x.y").text.preview_url, true);
  assert.deepEqual(mediaRequest("5521", "document", "55", "segue", "a.pdf"), {
    messaging_product: "whatsapp",
    recipient_type: "individual",
    to: "5521",
    type: "document",
    document: { id: "55", caption: "segue", filename: "a.pdf" },
  });
  assert.deepEqual(mediaRequest("5521", "audio", "56", "ignored", "a.ogg"), { messaging_product: "whatsapp", recipient_type: "individual", to: "5521", type: "audio", audio: { id: "56" } });
  assert.deepEqual(templateRequest("5521", { name: "t", language: "pt_BR", params: ["Ana"] }).template, {
    name: "t",
    language: { code: "pt_BR" },
    components: [{ type: "body", parameters: [{ type: "text", text: "Ana" }] }],
  });
  assert.deepEqual(templateRequest("5521", { name: "hello_world", language: "en_US", params: [] }).template, { name: "hello_world", language: { code: "en_US" } });
  assert.deepEqual(readRequest("wamid.X"), { messaging_product: "whatsapp", status: "read", message_id: "wamid.X" });
});

Deno.test("media kinds and extensions follow what the Cloud API accepts", () => {
  assert.equal(cloudMediaKind("image", "image/jpeg"), "image");
  assert.equal(cloudMediaKind("image", "image/gif"), "document");
  assert.equal(cloudMediaKind("video", "video/mp4"), "video");
  assert.equal(cloudMediaKind("video", "video/webm"), "document");
  assert.equal(cloudMediaKind("audio", "audio/ogg"), "audio");
  assert.equal(cloudMediaKind("application", "application/pdf"), "document");
  assert.equal(extensionOf("image/jpeg"), "jpg");
  assert.equal(extensionOf("audio/ogg; codecs=opus"), "ogg");
  assert.equal(extensionOf(""), "bin");
});

Deno.test("windowOf: open for 24 hours after the customer's last message, closed without one", () => {
  const now = 1_700_000_000_000;
  assert.deepEqual(windowOf(null, now), { open: false, expiresAt: null });
  assert.deepEqual(windowOf(now - 1000, now), { open: true, expiresAt: now - 1000 + WINDOW_MS });
  assert.equal(windowOf(now - WINDOW_MS, now).open, false);
});

Deno.test("templateInfo and renderTemplate: the body's placeholders", () => {
  const info = templateInfo({ name: "pedido", language: "pt_BR", status: "APPROVED", category: "UTILITY", components: [{ type: "HEADER", text: "x" }, { type: "BODY", text: "Olá {{1}}, pedido {{2}} pronto" }] });
  assert.deepEqual(info, { name: "pedido", language: "pt_BR", category: "UTILITY", status: "APPROVED", body: "Olá {{1}}, pedido {{2}} pronto", params: 2 });
  assert.equal(renderTemplate(info.body, ["Ana", "42"]), "Olá Ana, pedido 42 pronto");
  assert.equal(renderTemplate(info.body, ["Ana"]), "Olá Ana, pedido {{2}} pronto");
  assert.equal(templateInfo({ name: "x", components: [] }).params, 0);
});
