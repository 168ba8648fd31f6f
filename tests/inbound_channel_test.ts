/**
 * Connection-level behaviour of the inbound path: the queue menu and the customer's choice,
 * the out-of-hours message, ignored numbers, the signed webhook, and LID merging.
 */
import assert from "node:assert/strict";
import { type Client, type TestServer, withServer } from "./helpers/server.ts";
import { demoConnection, eventually } from "./helpers/channels.ts";
import { fakeFactory } from "./helpers/fake_baileys.ts";
import { setSetting } from "../actors/platform/settings_commands.ts";
import { companies, PLATFORM } from "../actors/platform/collections.ts";
import { BaileysAdapter } from "../server/channels/baileys.ts";
import { SIGNATURE_HEADER, signBody } from "../server/channels/webhook.ts";

type Ticket = { id: number; queueId: number | null; contact?: { number: string } };

async function ticketOf(admin: Client, number: string): Promise<Ticket> {
  return await eventually(async () => {
    const list = (await admin.get("/tickets?showAll=true&limit=1000")).body.tickets as Ticket[];
    return list.find((t) => t.contact?.number === number);
  }, 10_000, `ticket of ${number}`);
}

async function outboxTo(admin: Client, whatsappId: number, number: string, match: RegExp): Promise<{ body: string }> {
  return await eventually(async () => {
    const box = (await admin.get(`/simulator/${whatsappId}/outbox`)).body.messages as Array<{ to: string; body: string }>;
    return box.find((m) => m.to === number && match.test(m.body));
  }, 10_000, `outbox message ${match} to ${number}`);
}

Deno.test("inbound: a new ticket gets the queue menu and the numeric reply moves it to that queue", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const demo = await demoConnection(admin);
    const [, sales] = server.demo!.queueIds;
    const number = "5511966660001";
    await admin.post(`/simulator/${demo.id}/inbound`, { from: number, name: "Paulo", body: "Olá" });
    const menu = await outboxTo(admin, demo.id, number, /\*2\* - Vendas/);
    assert.match(menu.body, /^Olá! Bem-vindo à Demo/);
    const ticket = await ticketOf(admin, number);
    assert.equal(ticket.queueId, null);

    await admin.post(`/simulator/${demo.id}/inbound`, { from: number, name: "Paulo", body: "9" });
    await eventually(async () => {
      const box = (await admin.get(`/simulator/${demo.id}/outbox`)).body.messages as Array<{ to: string; body: string }>;
      return box.filter((m) => m.to === number && /\*2\* - Vendas/.test(m.body)).length === 2 ? true : undefined;
    }, 10_000, "menu repeated after an invalid option");

    await admin.post(`/simulator/${demo.id}/inbound`, { from: number, name: "Paulo", body: "2" });
    await eventually(async () => ((await admin.get(`/tickets/${ticket.id}`)).body.queueId === sales ? true : undefined), 10_000, "ticket moved to Vendas");
    await outboxTo(admin, demo.id, number, /Você está em Vendas/);
  });
});

Deno.test("inbound: once an agent accepts the ticket, the customer's replies no longer get the queue menu", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const demo = await demoConnection(admin);
    const number = "5511966660009";
    await admin.post(`/simulator/${demo.id}/inbound`, { from: number, name: "Rita", body: "Oi" });
    await outboxTo(admin, demo.id, number, /\*2\* - Vendas/);
    const ticket = await ticketOf(admin, number);
    assert.equal((await admin.put(`/tickets/${ticket.id}`, { status: "open", userId: server.demo!.logins[1].id })).status, 200);

    await admin.post(`/simulator/${demo.id}/inbound`, { from: number, name: "Rita", body: "Pedido 4242" });
    await eventually(async () => {
      const page = (await admin.get(`/messages/${ticket.id}`)).body;
      return page.messages.some((m: { body: string }) => m.body === "Pedido 4242") ? true : undefined;
    }, 10_000, "customer reply stored");
    // Give a wrongly resent menu time to appear, then check there is still exactly one.
    await new Promise((r) => setTimeout(r, 300));
    const box = (await admin.get(`/simulator/${demo.id}/outbox`)).body.messages as Array<{ to: string; body: string }>;
    assert.equal(box.filter((m) => m.to === number && /\*2\* - Vendas/.test(m.body)).length, 1);
  });
});

Deno.test("inbound: outside the company's opening hours the out-of-hours message is sent instead of the menu", async () => {
  await withServer(async (server) => {
    const { system } = server.deps;
    const companyId = server.demo!.companyId;
    await setSetting(system, companyId, "scheduleType", "company");
    const closed = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
      .map((weekdayEn) => ({ weekday: weekdayEn, weekdayEn, startTime: "00:00", endTime: "00:00" }));
    await companies.in(system, PLATFORM).update(companyId, (old) => ({ ...old, schedules: closed }), () => new Error("missing"));
    const admin = await server.login("admin@demo.local");
    const demo = await demoConnection(admin);
    const number = "5511966660002";
    await admin.post(`/simulator/${demo.id}/inbound`, { from: number, name: "Noturno", body: "alô" });
    await outboxTo(admin, demo.id, number, /fora do horário/);
    const box = (await admin.get(`/simulator/${demo.id}/outbox`)).body.messages as Array<{ to: string; body: string }>;
    assert.equal(box.filter((m) => m.to === number && /Vendas/.test(m.body)).length, 0);
  });
});

Deno.test("inbound: numbers in ignoreNumbers are dropped; the webhook receives each message signed", async () => {
  const received: Array<{ body: string; signature: string | null }> = [];
  const hook = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
    received.push({ body: await req.text(), signature: req.headers.get(SIGNATURE_HEADER) });
    return new Response("ok");
  });
  try {
    await withServer(async (server) => {
      const admin = await server.login("admin@demo.local");
      const demo = await demoConnection(admin);
      const full = (await admin.get(`/whatsapp/${demo.id}`)).body;
      const put = await admin.put(`/whatsapp/${demo.id}`, {
        ...full,
        ignoreNumbers: "5511966660003, 5511966660004",
        webhook: `http://127.0.0.1:${hook.addr.port}/hook`,
      });
      assert.equal(put.status, 200, JSON.stringify(put.body));
      await admin.post(`/simulator/${demo.id}/inbound`, { from: "5511966660003", name: "Spam", body: "ignorar" });
      await admin.post(`/simulator/${demo.id}/inbound`, { from: "5511966660005", name: "Real", body: "olá webhook", id: "HOOK-1" });
      await ticketOf(admin, "5511966660005");
      const list = (await admin.get("/tickets?showAll=true&limit=1000")).body.tickets as Ticket[];
      assert.equal(list.some((t) => t.contact?.number === "5511966660003"), false);
      const got = await eventually(() => received.find((r) => r.body.includes("HOOK-1")), 10_000, "webhook call");
      assert.equal(got.signature, await signBody(full.token, got.body));
      const payload = JSON.parse(got.body);
      assert.equal(payload.whatsappId, demo.id);
      assert.equal(payload.message.body, "olá webhook");
      assert.equal(received.some((r) => r.body.includes("ignorar")), false);
    }, { webhookAllowPrivate: true }); // the receiver is on loopback
  } finally {
    await hook.shutdown();
  }
});

Deno.test("inbound: a contact first seen by LID is merged with its number when Baileys reveals it", async () => {
  await withServer(async (server: TestServer) => {
    const fake = fakeFactory();
    server.deps.channels.setFactory("baileys", (ctx) => new BaileysAdapter(ctx, fake.factory));
    const admin = await server.login("admin@demo.local");
    const created = await admin.post("/whatsapp", { name: "Celular real", provider: "baileys", queueIds: [server.demo!.queueIds[0]] });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const sock = await eventually(() => fake.sockets[0]);
    sock.ev.emit("connection.update", { qr: "2@REALQR" });
    await eventually(async () => ((await admin.get(`/whatsapp/${created.body.id}`)).body.qrcode === "2@REALQR" ? true : undefined));
    sock.open("5511955550000");
    await eventually(async () => ((await admin.get(`/whatsapp/${created.body.id}`)).body.status === "CONNECTED" ? true : undefined));

    sock.upsert([{ key: { remoteJid: "246810121416@lid", id: "LIDMSG1" }, pushName: "Luna", message: { conversation: "oi pelo lid" } }]);
    const lidContact = await eventually(async () => {
      const list = (await admin.get("/contacts/?searchParam=Luna")).body.contacts as Array<{ id: number; number: string; lid?: string }>;
      return list.find((c) => c.lid === "246810121416");
    }, 10_000, "LID contact");
    assert.equal(lidContact.number, "", "the LID is not stored as the number");

    sock.ev.emit("lid-mapping.update", [{ lid: "246810121416@lid", pn: "5521977770000@s.whatsapp.net" }]);
    const merged = await eventually(async () => {
      const list = (await admin.get("/contacts/?searchParam=Luna")).body.contacts as Array<{ id: number; number: string; lid?: string }>;
      return list.length === 1 && list[0].number === "5521977770000" ? list[0] : undefined;
    }, 10_000, "number learned");
    assert.equal(merged.lid, "246810121416");

    sock.upsert([{ key: { remoteJid: "5521977770000@s.whatsapp.net", id: "PNMSG1" }, pushName: "Luna", message: { conversation: "agora pelo número" } }]);
    await new Promise((r) => setTimeout(r, 300));
    const after = (await admin.get("/contacts/?searchParam=Luna")).body.contacts as Array<{ id: number }>;
    assert.equal(after.length, 1, "one contact per person");
  });
});

Deno.test("inbound: a LID-only contact and the number's contact are merged, with their tickets, when the pair is revealed", async () => {
  await withServer(async (server: TestServer) => {
    const fake = fakeFactory();
    server.deps.channels.setFactory("baileys", (ctx) => new BaileysAdapter(ctx, fake.factory));
    const admin = await server.login("admin@demo.local");
    const created = await admin.post("/whatsapp", { name: "Celular", provider: "baileys", queueIds: [server.demo!.queueIds[0]] });
    const sock = await eventually(() => fake.sockets[0]);
    sock.open("5511955550001");
    await eventually(async () => ((await admin.get(`/whatsapp/${created.body.id}`)).body.status === "CONNECTED" ? true : undefined));

    sock.upsert([{ key: { remoteJid: "5521966660000@s.whatsapp.net", id: "BYNUM1" }, pushName: "Sol", message: { conversation: "pelo número" } }]);
    await ticketOf(admin, "5521966660000");
    sock.upsert([{ key: { remoteJid: "135791113@lid", id: "BYLID1" }, pushName: "Sol", message: { conversation: "pelo lid" } }]);
    const contacts = async () => (await admin.get("/contacts/?searchParam=Sol")).body.contacts as Array<{ id: number; number: string; lid?: string }>;
    await eventually(async () => ((await contacts()).length === 2 ? true : undefined), 10_000, "two contacts before the link");

    sock.ev.emit("chats.phoneNumberShare", { lid: "135791113@lid", jid: "5521966660000@s.whatsapp.net" });
    const merged = await eventually(async () => {
      const list = await contacts();
      return list.length === 1 ? list[0] : undefined;
    }, 10_000, "merged contact");
    assert.equal(merged.number, "5521966660000");
    assert.equal(merged.lid, "135791113");
    const tickets = (await admin.get("/tickets?showAll=true&limit=1000")).body.tickets as Array<{ contactId?: number; contact?: { id: number } }>;
    const theirs = tickets.filter((t) => (t.contact?.id ?? t.contactId) === merged.id);
    assert.ok(theirs.length >= 1);
    assert.equal(tickets.filter((t) => t.contact === undefined || t.contact === null).length, 0, "no ticket points at the deleted contact");
  });
});
