/**
 * The connection's conversation settings (issue #17) through the simulator: the out-of-hours
 * message once per closed period, CheckMsgIsGroup, calls (setting `call`), sendTransferAlert,
 * sendFarewellWaitingTicket and sendQueuePosition.
 */
import assert from "node:assert/strict";
import { type Client, withServer } from "./helpers/server.ts";
import { demoConnection, eventually } from "./helpers/channels.ts";
import { setSetting } from "../actors/platform/settings_commands.ts";
import { companies, PLATFORM } from "../actors/platform/collections.ts";

type Box = { messages: Array<{ to: string; body: string }>; rejectedCalls: string[] };

const outbox = async (admin: Client, id: number): Promise<Box> => (await admin.get(`/simulator/${id}/outbox`)).body;
const to = async (admin: Client, id: number, number: string) => (await outbox(admin, id)).messages.filter((m) => m.to === number);

async function waitText(admin: Client, id: number, number: string, match: RegExp, count = 1): Promise<void> {
  await eventually(async () => ((await to(admin, id, number)).filter((m) => match.test(m.body)).length >= count ? true : undefined), 10_000, `${count}× ${match} to ${number}`);
}

async function ticketOf(admin: Client, number: string): Promise<{ id: number; queueId: number | null; status: string }> {
  return await eventually(async () => {
    const list = (await admin.get("/tickets?showAll=true&limit=1000")).body.tickets as Array<{ id: number; queueId: number | null; status: string; contact?: { number: string } }>;
    return list.find((t) => t.contact?.number === number);
  }, 10_000, `ticket of ${number}`);
}

const settle = () => new Promise((r) => setTimeout(r, 300));

Deno.test("opening hours: the out-of-hours message goes once per closed period, and no menu while closed", async () => {
  await withServer(async (server) => {
    const { system } = server.deps;
    const companyId = server.demo!.companyId;
    await setSetting(system, companyId, "scheduleType", "company");
    const closed = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
      .map((weekdayEn) => ({ weekday: weekdayEn, weekdayEn, startTime: "00:00", endTime: "00:00" }));
    await companies.in(system, PLATFORM).update(companyId, (old) => ({ ...old, schedules: closed }), () => new Error("missing"));
    const admin = await server.login("admin@demo.local");
    const demo = await demoConnection(admin);
    const number = "5511955520001";
    await admin.post(`/simulator/${demo.id}/inbound`, { from: number, name: "Noturno", body: "alô" });
    await waitText(admin, demo.id, number, /fora do horário/);
    await admin.post(`/simulator/${demo.id}/inbound`, { from: number, name: "Noturno", body: "tem alguém?" });
    await ticketOf(admin, number);
    await settle();
    const got = await to(admin, demo.id, number);
    assert.equal(got.filter((m) => /fora do horário/.test(m.body)).length, 1, "told once in the closed period");
    assert.equal(got.filter((m) => /Vendas/.test(m.body)).length, 0, "no menu while closed");

    // outsidequeue: out of hours the customer is still routed to a queue.
    await setSetting(system, companyId, "outsidequeue", "enabled");
    const routed = "5511955520002";
    await admin.post(`/simulator/${demo.id}/inbound`, { from: routed, name: "Roteado", body: "oi" });
    await waitText(admin, demo.id, routed, /fora do horário/);
    await waitText(admin, demo.id, routed, /\*2\* - Vendas/);

    // The hours' clock is the company's time zone: an IANA zone, checked when saved.
    assert.equal((await admin.put("/settings/timezone", { value: "Marte/Base" })).status, 400);
    assert.equal((await admin.put("/settings/timezone", { value: "Europe/Lisbon" })).status, 200);
  });
});

Deno.test("CheckMsgIsGroup: group messages are stored while off and dropped while on", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const demo = await demoConnection(admin);
    const group = (id: string, body: string) =>
      admin.post(`/simulator/${demo.id}/inbound`, { from: "5511955520010", name: "Membro", body, isGroup: true, groupId: id, groupName: `Grupo ${id}` });
    await group("120363000000001", "mensagem no grupo");
    await ticketOf(admin, "120363000000001");
    await setSetting(server.deps.system, server.demo!.companyId, "CheckMsgIsGroup", "enabled");
    await group("120363000000002", "ignorada");
    await admin.post(`/simulator/${demo.id}/inbound`, { from: "5511955520011", name: "Pessoa", body: "oi" });
    await ticketOf(admin, "5511955520011");
    const list = (await admin.get("/tickets?showAll=true&limit=1000")).body.tickets as Array<{ contact?: { number: string } }>;
    assert.equal(list.some((t) => t.contact?.number === "120363000000002"), false);
  });
});

Deno.test("call: rejected with a message while calls are not accepted; noted in the conversation either way", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const demo = await demoConnection(admin);
    const caller = "5511955520020";
    const { callId } = (await admin.post(`/simulator/${demo.id}/call`, { from: caller, name: "Quem liga" })).body;
    await waitText(admin, demo.id, caller, /chamadas de voz e vídeo estão desativadas/);
    assert.deepEqual((await outbox(admin, demo.id)).rejectedCalls, [callId]);
    const ticket = await ticketOf(admin, caller);
    const messages = (await admin.get(`/messages/${ticket.id}`)).body.messages as Array<{ mediaType: string; body: string }>;
    assert.ok(messages.some((m) => m.mediaType === "call_log" && m.body === "Chamada de voz"));

    await setSetting(server.deps.system, server.demo!.companyId, "call", "enabled");
    const other = "5511955520021";
    await admin.post(`/simulator/${demo.id}/call`, { from: other, name: "Outro", isVideo: true });
    const second = await ticketOf(admin, other);
    await eventually(async () => {
      const list = (await admin.get(`/messages/${second.id}`)).body.messages as Array<{ mediaType: string; body: string }>;
      return list.some((m) => m.mediaType === "call_log" && m.body === "Chamada de vídeo") ? true : undefined;
    }, 10_000, "video call noted");
    await settle();
    assert.equal((await outbox(admin, demo.id)).rejectedCalls.length, 1, "an accepted call is not rejected");
    assert.equal((await to(admin, demo.id, other)).filter((m) => /desativadas/.test(m.body)).length, 0);
  });
});

Deno.test("sendTransferAlert and sendFarewellWaitingTicket: the customer hears of a transfer and of a waiting ticket's close", async () => {
  await withServer(async (server) => {
    const { system } = server.deps;
    const companyId = server.demo!.companyId;
    const [support, sales] = server.demo!.queueIds;
    const admin = await server.login("admin@demo.local");
    const demo = await demoConnection(admin);
    const full = (await admin.get(`/whatsapp/${demo.id}`)).body;
    assert.equal((await admin.put(`/whatsapp/${demo.id}`, { ...full, complationMessage: "Até logo, {{name}}!" })).status, 200);

    const number = "5511955520030";
    await admin.post(`/simulator/${demo.id}/inbound`, { from: number, name: "Transferida", body: "oi" });
    const ticket = await ticketOf(admin, number);
    assert.equal((await admin.put(`/tickets/${ticket.id}`, { queueId: support, status: "pending" })).status, 200);
    await settle();
    assert.equal((await to(admin, demo.id, number)).filter((m) => /transferido/.test(m.body)).length, 0, "off: no alert");

    await setSetting(system, companyId, "sendTransferAlert", "enabled");
    assert.equal((await admin.put(`/tickets/${ticket.id}`, { queueId: sales, status: "pending" })).status, 200);
    await waitText(admin, demo.id, number, /transferido para o setor \*Vendas\*/);
    assert.equal((await admin.put(`/tickets/${ticket.id}`, { queueId: support, userId: server.demo!.logins[3].id, status: "open" })).status, 200);
    await waitText(admin, demo.id, number, /transferido para \*Alice Atendente\* \(Suporte\)/);

    await setSetting(system, companyId, "sendFarewellWaitingTicket", "enabled");
    const waiting = "5511955520031";
    await admin.post(`/simulator/${demo.id}/inbound`, { from: waiting, name: "Esperando", body: "oi" });
    const pending = await ticketOf(admin, waiting);
    assert.equal((await admin.put(`/tickets/${pending.id}`, { status: "closed" })).status, 200);
    await waitText(admin, demo.id, waiting, /^Até logo, Esperando!$/);
  });
});

Deno.test("sendQueuePosition: told on entering the queue, and told again as the queue moves", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const demo = await demoConnection(admin);
    await setSetting(server.deps.system, server.demo!.companyId, "sendQueuePosition", "enabled");
    const [first, second] = ["5511955520040", "5511955520041"];
    for (const number of [first, second]) {
      await admin.post(`/simulator/${demo.id}/inbound`, { from: number, name: "Fila", body: "oi" });
      await waitText(admin, demo.id, number, /\*2\* - Vendas/);
      await admin.post(`/simulator/${demo.id}/inbound`, { from: number, name: "Fila", body: "2" });
    }
    await waitText(admin, demo.id, first, /Você é o \*1º\* da fila/);
    await waitText(admin, demo.id, second, /Você é o \*2º\* da fila/);

    const ticket = await ticketOf(admin, first);
    assert.equal((await admin.put(`/tickets/${ticket.id}`, { status: "open", userId: server.demo!.logins[1].id })).status, 200);
    await waitText(admin, demo.id, second, /Você é o \*1º\* da fila/);
    await settle();
    assert.equal((await to(admin, demo.id, first)).filter((m) => /da fila/.test(m.body)).length, 1, "the one taken is not told again");
  });
});
