/**
 * The Baileys adapter's phone book, fed by a fake socket emitting Baileys' own event shapes
 * (contacts.upsert/update, chats.upsert/update, messaging-history.set, lid-mapping.update),
 * and the import over HTTP through a Baileys connection.
 */
import assert from "node:assert/strict";
import type { AdapterEvent, PhoneContact } from "../domain/channel.ts";
import type { Whatsapp } from "../domain/whatsapp.ts";
import { BaileysAdapter } from "../server/channels/baileys.ts";
import { importUpserts } from "../server/channels/contact_upserts.ts";
import { eventually } from "./helpers/channels.ts";
import { fakeFactory } from "./helpers/fake_baileys.ts";
import { withServer } from "./helpers/server.ts";

async function setup() {
  const kv = await Deno.openKv(":memory:");
  const events: AdapterEvent[] = [];
  const fake = fakeFactory();
  const adapter = new BaileysAdapter(
    { companyId: 1, whatsappId: 2, kv, record: {} as Whatsapp, emit: (e) => events.push(e) },
    fake.factory,
  );
  await adapter.start();
  return { kv, adapter, fake, sock: fake.sockets[0], close: () => kv.close() };
}

const sorted = (list: PhoneContact[]) => [...list].sort((a, b) => a.number.localeCompare(b.number));

Deno.test("BaileysAdapter.phoneContacts lists the named people of contacts.upsert/update and history, never groups, broadcasts or unknown LIDs", async () => {
  const t = await setup();
  try {
    await assert.rejects(t.adapter.phoneContacts(), { code: "ERR_WAPP_NOT_INITIALIZED" }, "not before the socket is open");
    t.sock.open("5511999990000");
    t.sock.ev.emit("contacts.upsert", [
      { id: "5521988887777@s.whatsapp.net", name: "Bia Salva", notify: "bia" },
      { id: "120363000000000001@g.us", name: "Grupo da Loja" },
      { id: "status@broadcast", name: "Status" },
      { id: "123456789@newsletter", name: "Canal" },
      { id: "246810121416@lid", notify: "Luna pelo LID" },
      { id: "5511911112222@s.whatsapp.net", lid: "97531@lid", notify: "Só Push" },
      { id: "5511933334444@s.whatsapp.net" },
    ]);
    t.sock.ev.emit("contacts.update", [
      { id: "5511933334444@s.whatsapp.net", notify: "Agora com nome" },
      { id: "5511955556666@s.whatsapp.net", imgUrl: "changed" },
      { id: "5521988887777@s.whatsapp.net", notify: "Bia do push" },
    ]);
    t.sock.ev.emit("messaging-history.set", {
      contacts: [{ id: "5531977776666@s.whatsapp.net", name: "Do Histórico" }, { id: "5531911110000@s.whatsapp.net", name: undefined }],
      chats: [],
      messages: [],
      isLatest: true,
    });
    assert.deepEqual(sorted(await t.adapter.phoneContacts()), [
      { number: "5511911112222", name: "Só Push" },
      { number: "5511933334444", name: "Agora com nome" },
      { number: "5521988887777", name: "Bia Salva" },
      { number: "5531977776666", name: "Do Histórico" },
    ]);

    t.sock.ev.emit("lid-mapping.update", { lid: "246810121416@lid", pn: "5511922223333@s.whatsapp.net" });
    assert.deepEqual(
      (await t.adapter.phoneContacts()).find((c) => c.number === "5511922223333"),
      { number: "5511922223333", name: "Luna pelo LID" },
      "a LID contact appears once its number is known",
    );
  } finally {
    t.close();
  }
});

Deno.test("BaileysAdapter.chatContacts lists individual chats of chats.upsert/update and history, named by chat or contact", async () => {
  const t = await setup();
  try {
    t.sock.open("5511999990000");
    t.sock.ev.emit("contacts.upsert", [{ id: "5521988887777@s.whatsapp.net", name: "Bia Salva" }]);
    t.sock.ev.emit("messaging-history.set", {
      contacts: [],
      chats: [
        { id: "5521988887777@s.whatsapp.net", unreadCount: 1 },
        { id: "120363000000000001@g.us", name: "Grupo" },
        { id: "135791113@lid", pnJid: "5541966665555@s.whatsapp.net", name: "Chat pelo LID" },
        { id: "864202468@lid", name: "LID sem número" },
        { id: "status@broadcast" },
      ],
      messages: [],
      isLatest: true,
    });
    t.sock.ev.emit("chats.upsert", [{ id: "5511900001111@s.whatsapp.net" }, { id: "999@newsletter" }]);
    t.sock.ev.emit("chats.update", [{ id: "5511900001111@s.whatsapp.net", name: "Novo Chat" }]);
    assert.deepEqual(sorted(await t.adapter.chatContacts()), [
      { number: "5511900001111", name: "Novo Chat" },
      { number: "5521988887777", name: "Bia Salva" },
      { number: "5541966665555", name: "Chat pelo LID" },
    ]);
    assert.deepEqual(await t.adapter.phoneContacts(), [{ number: "5521988887777", name: "Bia Salva" }], "chats are not the address book");
  } finally {
    t.close();
  }
});

Deno.test("BaileysAdapter keeps its phone book across a reconnect, ignores a stale socket and forgets the book on logout", async () => {
  const t = await setup();
  try {
    t.sock.open("5511999990000");
    t.sock.ev.emit("contacts.upsert", [{ id: "5521988887777@s.whatsapp.net", name: "Bia Salva" }]);
    await t.adapter.start();
    const fresh = t.fake.sockets[1];
    t.sock.ev.emit("contacts.upsert", [{ id: "5521900000000@s.whatsapp.net", name: "Do socket velho" }]);
    fresh.open("5511999990000");
    assert.deepEqual(await t.adapter.phoneContacts(), [{ number: "5521988887777", name: "Bia Salva" }]);
    await t.adapter.logout();
    await t.adapter.start();
    t.fake.sockets[2].open("5511999990000");
    assert.deepEqual(await t.adapter.phoneContacts(), []);
  } finally {
    t.close();
  }
});

Deno.test("POST /contacts/import reads a Baileys connection's phone book", async () => {
  await withServer(async (server) => {
    const fake = fakeFactory();
    server.deps.channels.setFactory("baileys", (ctx) => new BaileysAdapter(ctx, fake.factory));
    const admin = await server.login("admin@demo.local");
    const created = await admin.post("/whatsapp", { name: "Celular", provider: "baileys", queueIds: [server.demo!.queueIds[0]] });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const sock = await eventually(() => fake.sockets[0]);
    sock.open("5511955550001");
    await eventually(async () => ((await admin.get(`/whatsapp/${created.body.id}`)).body.status === "CONNECTED" ? true : undefined));
    sock.ev.emit("contacts.upsert", [
      { id: "5521977770001@s.whatsapp.net", name: "Cliente Baileys" },
      { id: "120363000000000002@g.us", name: "Grupo" },
    ]);
    sock.ev.emit("chats.upsert", [{ id: "5521977770002@s.whatsapp.net", name: "Só Conversa" }]);
    const r = await admin.post("/contacts/import", { whatsappId: created.body.id });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual([r.body.valid, r.body.created], [1, 1]);
    const chats = await admin.post("/contacts/import/chats", { whatsappId: created.body.id });
    assert.deepEqual([chats.body.valid, chats.body.created], [1, 1]);
    const names = (await admin.get("/contacts/?searchParam=5521977770")).body.contacts.map((c: { name: string }) => c.name).sort();
    assert.deepEqual(names, ["Cliente Baileys", "Só Conversa"]);
  });
});

Deno.test("allowupserts on: the people a Baileys phone reports (contacts.upsert, history) become contacts by themselves; off: nothing, and a known contact keeps its name", async () => {
  await withServer(async (server) => {
    const fake = fakeFactory();
    server.deps.channels.setFactory("baileys", (ctx) => new BaileysAdapter(ctx, fake.factory));
    const owner = await server.login("super@balcao.local");
    const admin = await server.login("admin@demo.local");
    const known = await admin.post("/contacts", { name: "Nome do Atendente", number: "5521966660003" });
    assert.equal(known.status, 200, JSON.stringify(known.body));
    const created = await admin.post("/whatsapp", { name: "Celular Auto", provider: "baileys", queueIds: [server.demo!.queueIds[0]] });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const sock = await eventually(() => fake.sockets[0]);
    sock.open("5511955550002");
    await eventually(async () => ((await admin.get(`/whatsapp/${created.body.id}`)).body.status === "CONNECTED" ? true : undefined));
    const named = async (number: string) => (await admin.get(`/contacts/?searchParam=${number}`)).body.contacts.map((c: { name: string }) => c.name);

    // Off (the default): what the phone reports stays in its phone book only.
    const companyId = server.demo!.companyId;
    assert.equal(await importUpserts(server.deps.system, companyId, [{ number: "5521966660001", name: "Antes de Ligar" }]), 0);

    assert.equal((await owner.put("/settings/allowupserts", { value: "enabled" })).status, 200);
    sock.ev.emit("contacts.upsert", [
      { id: "5521966660002@s.whatsapp.net", name: "Chegou Sozinha" },
      { id: "5521966660003@s.whatsapp.net", name: "Nome do Celular" },
      { id: "120363000000000009@g.us", name: "Grupo Ignorado" },
      { id: "5521966660004@s.whatsapp.net" },
    ]);
    sock.ev.emit("messaging-history.set", { contacts: [{ id: "5521966660005@s.whatsapp.net", notify: "Do Histórico" }], chats: [], messages: [] });
    await eventually(async () => (await named("5521966660002")).length === 1 || undefined, 10_000, "the upserted contact");
    await eventually(async () => (await named("5521966660005")).length === 1 || undefined, 10_000, "the history's contact");
    assert.deepEqual(await named("5521966660002"), ["Chegou Sozinha"]);
    assert.deepEqual(await named("5521966660005"), ["Do Histórico"]);
    assert.deepEqual(await named("5521966660003"), ["Nome do Atendente"], "an insert, never an overwrite");
    assert.deepEqual(await named("5521966660004"), [], "no name, not in the address book");
    assert.deepEqual(await named("5521966660001"), [], "reported while the setting was off");
    assert.equal(await importUpserts(server.deps.system, companyId, [{ number: "5521966660006", name: "Direto" }]), 1);
    assert.equal((await admin.get("/contacts/?searchParam=Grupo Ignorado")).body.count, 0);
  });
});
