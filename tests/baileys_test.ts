/** The Baileys adapter driven by a fake socket that emits Baileys' own event shapes. */
import assert from "node:assert/strict";
import type { AdapterEvent, InboundMessage } from "../domain/channel.ts";
import { BaileysAdapter } from "../server/channels/baileys.ts";
import { baileysAuthPrefix, kvAuthState } from "../server/channels/baileys_auth.ts";
import type { Whatsapp } from "../domain/whatsapp.ts";
import { fakeFactory } from "./helpers/fake_baileys.ts";

async function setup() {
  const kv = await Deno.openKv(":memory:");
  const events: AdapterEvent[] = [];
  const fake = fakeFactory();
  const downloads: string[] = [];
  const adapter = new BaileysAdapter(
    { companyId: 1, whatsappId: 2, kv, record: {} as Whatsapp, emit: (e) => events.push(e) },
    fake.factory,
    (msg) => {
      downloads.push(msg.key.id ?? "");
      return Promise.resolve({ data: new Uint8Array([1, 2, 3]), mimetype: "image/jpeg", filename: "x.jpg" });
    },
  );
  await adapter.start();
  const sock = fake.sockets[0];
  return { kv, events, adapter, sock, fake, downloads, close: () => kv.close() };
}

const messages = (events: AdapterEvent[]) =>
  events.filter((e): e is Extract<AdapterEvent, { type: "message" }> => e.type === "message").map((e) => e.message);

Deno.test("BaileysAdapter maps QR, pairing and open; creds are kept in KV with their binary fields", async () => {
  const t = await setup();
  try {
    t.sock.ev.emit("connection.update", { qr: "2@QRDATA" });
    t.sock.ev.emit("creds.update", { me: { id: "5511999990000:7@s.whatsapp.net", name: "Loja" } });
    t.sock.open("5511999990000");
    assert.deepEqual(t.events.map((e) => e.type), ["qr", "pairing", "connected"]);
    assert.deepEqual(t.events[0], { type: "qr", qrcode: "2@QRDATA" });
    assert.deepEqual(t.events[2], { type: "connected", number: "5511999990000" });
    await new Promise((r) => setTimeout(r, 20));
    const again = await kvAuthState(t.kv, 1, 2);
    assert.equal(again.registered, true);
    assert.equal(again.state.creds.me?.id, "5511999990000:7@s.whatsapp.net");
    assert.ok(again.state.creds.noiseKey.private instanceof Uint8Array);
    await again.state.keys.set({ "pre-key": { "1": { public: new Uint8Array([9]), private: new Uint8Array([8]) } } });
    const keys = await again.state.keys.get("pre-key", ["1", "2"]);
    assert.deepEqual([...keys["1"].public], [9]);
    assert.equal(keys["2"], undefined);
  } finally {
    t.close();
  }
});

Deno.test("BaileysAdapter maps every upserted message kind and ignores reactions and status broadcasts", async () => {
  const t = await setup();
  try {
    t.sock.open("5511999990000");
    const chat = "5521988887777@s.whatsapp.net";
    const key = (id: string, extra: Record<string, unknown> = {}) => ({ remoteJid: chat, fromMe: false, id, ...extra });
    t.sock.upsert([
      { key: key("M1"), pushName: "Bia", messageTimestamp: 1_700_000_000, message: { conversation: "oi" } },
      { key: key("M2"), message: { extendedTextMessage: { text: "respondendo", contextInfo: { stanzaId: "M1" } } } },
      { key: key("M3"), message: { imageMessage: { caption: "foto", mimetype: "image/jpeg" } } },
      { key: key("M4"), message: { audioMessage: { ptt: true, mimetype: "audio/ogg" } } },
      { key: key("M5"), message: { videoMessage: { caption: "vídeo" } } },
      { key: key("M6"), message: { documentWithCaptionMessage: { message: { documentMessage: { fileName: "nota.pdf" } } } } },
      { key: key("M7"), message: { locationMessage: { degreesLatitude: -23.5, degreesLongitude: -46.6, name: "Loja" } } },
      { key: key("M8"), message: { contactMessage: { displayName: "Zé", vcard: "BEGIN:VCARD\nFN:Zé\nEND:VCARD" } } },
      { key: key("M9"), message: { contactsArrayMessage: { contacts: [{ vcard: "BEGIN:VCARD\nFN:A\nEND:VCARD" }, { vcard: "BEGIN:VCARD\nFN:B\nEND:VCARD" }] } } },
      { key: key("M10"), message: { reactionMessage: { key: { id: "M1" }, text: "👍" } } },
      { key: { remoteJid: "status@broadcast", id: "S1" }, message: { conversation: "status" } },
      { key: key("M11", { fromMe: true }), message: { conversation: "enviado do celular" } },
      { key: key("M12"), message: { ephemeralMessage: { message: { conversation: "temporária" } } } },
    ]);
    await new Promise((r) => setTimeout(r, 20));
    const got = messages(t.events);
    const byId = new Map(got.map((m) => [m.providerId, m]));
    assert.equal(byId.size, 11);
    assert.deepEqual(pick(byId.get("M1")!), { from: "5521988887777", name: "Bia", body: "oi", mediaType: "chat", fromMe: false, isGroup: false });
    assert.equal(byId.get("M1")!.timestamp, 1_700_000_000_000);
    assert.equal(byId.get("M2")!.quotedProviderId, "M1");
    assert.equal(byId.get("M3")!.mediaType, "image");
    assert.equal(byId.get("M3")!.body, "foto");
    assert.deepEqual([...byId.get("M3")!.media!.data], [1, 2, 3]);
    assert.equal(byId.get("M4")!.mediaType, "audio");
    assert.equal(byId.get("M5")!.mediaType, "video");
    assert.deepEqual([byId.get("M6")!.mediaType, byId.get("M6")!.body], ["document", "nota.pdf"]);
    assert.equal(byId.get("M7")!.mediaType, "locationMessage");
    assert.match(byId.get("M7")!.body, /maps\.google\.com.*-23\.5%2C-46\.6.*\|Loja/);
    assert.equal(byId.get("M8")!.mediaType, "contactMessage");
    assert.match(byId.get("M8")!.body, /FN:Zé/);
    assert.equal(byId.get("M9")!.mediaType, "contactsArrayMessage");
    assert.match(byId.get("M9")!.body, /FN:A[\s\S]*FN:B/);
    assert.equal(byId.has("M10"), false, "reactions are ignored");
    assert.equal(byId.has("S1"), false, "status broadcasts are ignored");
    assert.equal(byId.get("M11")!.fromMe, true, "the company's own phone joins as sent");
    assert.equal(byId.get("M12")!.body, "temporária");
    assert.deepEqual(t.downloads.sort(), ["M3", "M4", "M5", "M6"]);
  } finally {
    t.close();
  }
});

Deno.test("BaileysAdapter maps group messages with their participant, edits and deletes", async () => {
  const t = await setup();
  try {
    t.sock.open("5511999990000");
    t.sock.upsert([
      { key: { remoteJid: "120363012345@g.us", participant: "5531977776666@s.whatsapp.net", id: "G1" }, pushName: "Carla", message: { conversation: "no grupo" } },
      { key: { remoteJid: "5521988887777@s.whatsapp.net", id: "P1" }, message: { protocolMessage: { type: 0, key: { id: "M1" } } } },
      { key: { remoteJid: "5521988887777@s.whatsapp.net", id: "P2" }, message: { protocolMessage: { type: 14, key: { id: "M2" }, editedMessage: { conversation: "corrigido" } } } },
    ]);
    const group = messages(t.events)[0];
    assert.deepEqual([group.isGroup, group.from, group.group?.id], [true, "120363012345", "120363012345"]);
    assert.deepEqual(group.participant, { number: "5531977776666", name: "Carla" });
    assert.deepEqual(t.events.filter((e) => e.type === "delete"), [{ type: "delete", providerId: "M1" }]);
    assert.deepEqual(t.events.filter((e) => e.type === "edit"), [{ type: "edit", providerId: "M2", body: "corrigido" }]);
  } finally {
    t.close();
  }
});

Deno.test("BaileysAdapter never stores a LID as a number and links LID and phone when revealed", async () => {
  const t = await setup();
  try {
    t.sock.open("5511999990000");
    t.sock.upsert([
      { key: { remoteJid: "123456789012345@lid", id: "L1" }, pushName: "Lia", message: { conversation: "via lid" } },
      { key: { remoteJid: "123456789012345@lid", senderPn: "5521911112222@s.whatsapp.net", id: "L2" }, message: { conversation: "com pn" } },
      { key: { remoteJid: "120363099@g.us", participant: "987654321@lid", participantPn: "5531933334444@s.whatsapp.net", id: "L3" }, message: { conversation: "grupo" } },
    ]);
    t.sock.ev.emit("chats.phoneNumberShare", { lid: "555000111@lid", jid: "5541955556666@s.whatsapp.net" });
    t.sock.ev.emit("lid-mapping.update", [{ lid: "777@lid", pn: "5551900001111@s.whatsapp.net" }]);
    const got = messages(t.events);
    const lidOnly = got.find((m) => m.providerId === "L1")!;
    assert.equal(lidOnly.from, "", "a LID is never used as the number");
    assert.equal(lidOnly.lid, "123456789012345");
    assert.equal(got.find((m) => m.providerId === "L2")!.from, "5521911112222");
    assert.equal(got.find((m) => m.providerId === "L3")!.participant?.number, "5531933334444");
    const links = t.events.filter((e) => e.type === "lid");
    assert.deepEqual(links, [
      { type: "lid", lid: "123456789012345", number: "5521911112222" },
      { type: "lid", lid: "987654321", number: "5531933334444" },
      { type: "lid", lid: "555000111", number: "5541955556666" },
      { type: "lid", lid: "777", number: "5551900001111" },
    ]);
  } finally {
    t.close();
  }
});

Deno.test("BaileysAdapter sends through the socket, ignores its own echo, and maps receipts to acks", async () => {
  const t = await setup();
  try {
    await assert.rejects(t.adapter.sendText({ to: "5521988887777", isGroup: false, body: "cedo" }), /not connected/);
    t.sock.open("5511999990000");
    const { providerId } = await t.adapter.sendText({ to: "5521988887777", isGroup: false, body: "olá", quotedProviderId: "M1" });
    assert.equal(t.sock.sent[0].jid, "5521988887777@s.whatsapp.net");
    assert.deepEqual(t.sock.sent[0].content, { text: "olá" });
    t.sock.upsert([{ key: { remoteJid: "5521988887777@s.whatsapp.net", fromMe: true, id: providerId }, message: { conversation: "olá" } }]);
    assert.equal(messages(t.events).length, 0, "the echo of our own send is not inbound");
    t.sock.ev.emit("messages.update", [{ key: { id: providerId, fromMe: true, remoteJid: "x" }, update: { status: 3 } }]);
    t.sock.ev.emit("message-receipt.update", [{ key: { id: providerId }, receipt: { userJid: "x", readTimestamp: 1 } }]);
    assert.deepEqual(t.events.filter((e) => e.type === "ack"), [
      { type: "ack", providerId, ack: 3 },
      { type: "ack", providerId, ack: 4 },
    ]);
    assert.deepEqual(await t.adapter.checkNumber("5521988887777"), { exists: true, jid: "5521988887777@s.whatsapp.net" });
    assert.deepEqual(await t.adapter.checkNumber("0001"), { exists: false });
    assert.match((await t.adapter.profilePicture("5521988887777"))!, /pps\.example/);
    await t.adapter.delete("5521988887777", providerId, true);
    assert.deepEqual(t.sock.sent[1].content, { delete: { remoteJid: "5521988887777@s.whatsapp.net", id: providerId, fromMe: true } });
  } finally {
    t.close();
  }
});

Deno.test("BaileysAdapter reports a logout on close with loggedOut and drops the auth; offline messages replay", async () => {
  const t = await setup();
  try {
    t.sock.open("5511999990000");
    t.sock.upsert([{ key: { remoteJid: "5521988887777@s.whatsapp.net", id: "A1" }, messageTimestamp: 1_700_000_000, message: { conversation: "antes" } }]);
    t.sock.ev.emit("connection.update", { connection: "close", lastDisconnect: { error: { message: "lost", output: { statusCode: 428 } } } });
    assert.deepEqual(t.events.at(-1), { type: "disconnected", reason: "lost", loggedOut: false });
    await t.adapter.start();
    const sock2 = t.fake.sockets[1];
    sock2.open("5511999990000");
    sock2.upsert([{ key: { remoteJid: "5521988887777@s.whatsapp.net", id: "A2" }, messageTimestamp: 1_700_000_100, message: { conversation: "offline" } }], "append");
    sock2.ev.emit("messaging-history.set", {
      chats: [],
      contacts: [],
      messages: [
        { key: { remoteJid: "5521988887777@s.whatsapp.net", id: "OLD" }, messageTimestamp: 1_600_000_000, message: { conversation: "velha" } },
        { key: { remoteJid: "5521988887777@s.whatsapp.net", id: "A3" }, messageTimestamp: 1_700_000_200, message: { conversation: "histórico" } },
      ],
    });
    assert.deepEqual(messages(t.events).map((m) => m.providerId), ["A1", "A2", "A3"]);
    sock2.ev.emit("creds.update", { me: { id: "5511999990000:7@s.whatsapp.net" } });
    await new Promise((r) => setTimeout(r, 20));
    sock2.ev.emit("connection.update", { connection: "close", lastDisconnect: { error: { message: "logged out", output: { statusCode: 401 } } } });
    assert.deepEqual(t.events.at(-1), { type: "disconnected", reason: "logged out", loggedOut: true });
    await new Promise((r) => setTimeout(r, 50));
    const left = await Array.fromAsync(t.kv.list({ prefix: baileysAuthPrefix(1, 2) }));
    assert.equal(left.length, 0);
  } finally {
    t.close();
  }
});

Deno.test("BaileysAdapter after a restart replays history back to the saved last-seen time less a margin", async () => {
  const t = await setup();
  try {
    t.sock.open("5511999990000");
    const chat = "5521988887777@s.whatsapp.net";
    const at = 1_700_000_000; // seconds, as WhatsApp stamps messages
    t.sock.upsert([{ key: { remoteJid: chat, id: "SEEN" }, messageTimestamp: at, message: { conversation: "visto" } }]);
    await new Promise((r) => setTimeout(r, 20)); // the last-seen write
    await t.adapter.stop();

    // A new process: a fresh adapter over the same store.
    const events: AdapterEvent[] = [];
    const fake = fakeFactory();
    const restarted = new BaileysAdapter({ companyId: 1, whatsappId: 2, kv: t.kv, record: {} as Whatsapp, emit: (e) => events.push(e) }, fake.factory);
    await restarted.start();
    const sock = fake.sockets[0];
    sock.open("5511999990000");
    sock.ev.emit("messaging-history.set", {
      chats: [],
      contacts: [],
      messages: [
        { key: { remoteJid: chat, id: "LONG-AGO" }, messageTimestamp: at - 600, message: { conversation: "antiga" } },
        { key: { remoteJid: chat, id: "MARGIN" }, messageTimestamp: at - 60, message: { conversation: "na margem" } },
        { key: { remoteJid: chat, id: "WHILE-DOWN" }, messageTimestamp: at + 100, message: { conversation: "enquanto fora" } },
      ],
    });
    assert.deepEqual(messages(events).map((m) => m.providerId), ["MARGIN", "WHILE-DOWN"]);
    await restarted.stop();
  } finally {
    t.close();
  }
});

function pick(m: InboundMessage) {
  return { from: m.from, name: m.name, body: m.body, mediaType: m.mediaType, fromMe: m.fromMe, isGroup: m.isGroup };
}
