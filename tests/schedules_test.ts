/** /schedules over real HTTP (spec 001 §2.19, §3, §7; issue #17), sends through the simulator. */
import assert from "node:assert/strict";
import { whatsapps } from "../actors/whatsapps/collection.ts";
import { UPGRADE_TEXT } from "../domain/external_message.ts";
import { eventually } from "./helpers/channels.ts";
import { makeContact, makeUser } from "./helpers/fixtures.ts";
import { freshNumber, nextEvent } from "./helpers/messages.ts";
import { type TestServer, withServer } from "./helpers/server.ts";
import { createTenant } from "./helpers/tenants.ts";

/** The demo connection (simulator, paired). */
async function demoConnection(server: TestServer) {
  const list = await whatsapps.in(server.deps.system, server.demo!.companyId).list();
  return list.find((w) => w.name === "WhatsApp Demo")!;
}

/** The multipart body the spec's client sends: `scheduleData` JSON text and an optional file. */
function form(data: Record<string, unknown>, file?: File): FormData {
  const body = new FormData();
  body.append("scheduleData", JSON.stringify(data));
  if (file) body.append("file", file);
  return body;
}

const inAnHour = () => new Date(Date.now() + 3600_000).toISOString();

Deno.test("POST/GET/PUT/DELETE /schedules: multipart with file and scheduleData, JSON too, live on company-{id}-schedule", async () => {
  await withServer(async (server) => {
    const companyId = server.demo!.companyId;
    const admin = await server.login("admin@demo.local");
    const contact = await makeContact(server, companyId, { name: "Mariana Agenda" });
    const channel = `company-${companyId}-schedule`;

    const created = nextEvent(server, (e) => e.channel === channel && (e.data as { action: string }).action === "create");
    const file = new File([new TextEncoder().encode("%PDF-1.4 agenda")], "agenda.pdf", { type: "application/pdf" });
    const post = await admin.post("/schedules", form({
      body: "Lembrete: sua consulta é amanhã",
      contactId: contact.id,
      sendAt: inAnHour(),
      geral: true,
      atribuirUser: true,
      repeatEvery: "2",
      selectDaysRecorrenci: "Monday, Thursday",
    }, file));
    assert.equal(post.status, 200, JSON.stringify(post.body));
    const s = post.body;
    assert.deepEqual(
      [s.status, s.contact.name, s.mediaName, s.repeatEvery, s.selectDaysRecorrenci, s.geral, s.atribuirUser],
      ["PENDENTE", "Mariana Agenda", "agenda.pdf", 2, "Monday, Thursday", true, true],
    );
    assert.ok(s.userId > 0, "atribuirUser without a user assigns the author");
    assert.match(s.mediaUrl, /^\/media\//);
    const event = await created;
    assert.equal((event.data as { schedule: { id: number } }).schedule.id, s.id);
    assert.equal(event.scope.kind, "company");

    const json = await admin.post("/schedules", { body: "Outro lembrete", contactId: contact.id, sendAt: inAnHour() });
    assert.equal(json.status, 200, JSON.stringify(json.body));

    const list = await admin.get(`/schedules/?searchParam=mariana&pageNumber=1`);
    assert.equal(list.status, 200);
    assert.equal(list.body.count, 2);
    assert.equal(list.body.hasMore, false);
    const byContact = await admin.get(`/schedules?contactId=${contact.id}&start=${encodeURIComponent(new Date().toISOString())}&end=${encodeURIComponent(new Date(Date.now() + 7200_000).toISOString())}`);
    assert.equal(byContact.body.schedules.length, 2);
    const none = await admin.get(`/schedules?start=2020-01-01T00:00:00Z&end=2020-02-01T00:00:00Z`);
    assert.equal(none.body.count, 0);

    const updated = nextEvent(server, (e) => e.channel === channel && (e.data as { action: string }).action === "update");
    const put = await admin.put(`/schedules/${s.id}`, form({ body: "Lembrete alterado", mediaPath: null }));
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.deepEqual([put.body.body, put.body.mediaPath, put.body.contactId, put.body.repeatEvery], ["Lembrete alterado", null, contact.id, 2]);
    await updated;
    assert.equal((await admin.get(`/schedules/${s.id}`)).body.body, "Lembrete alterado");

    const deleted = nextEvent(server, (e) => e.channel === channel && (e.data as { action: string }).action === "delete");
    assert.equal((await admin.delete(`/schedules/${s.id}`)).status, 200);
    assert.deepEqual((await deleted).data, { action: "delete", scheduleId: s.id });
    assert.equal((await admin.get(`/schedules/${s.id}`)).status, 404);
  });
});

Deno.test("POST /schedules answers the client's validation texts and names what does not exist", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const empty = await admin.post("/schedules", form({}));
    assert.equal(empty.status, 400);
    assert.deepEqual(
      [empty.body.fields.body, empty.body.fields.contactId, empty.body.fields.sendAt],
      ["Obrigatório", "Obrigatório", "Obrigatório"],
    );
    const short = await admin.post("/schedules", { body: "oi", contactId: 1, sendAt: inAnHour() });
    assert.equal(short.body.fields.body, "Mensagem muito curta");
    const badDays = await admin.post("/schedules", { body: "Lembrete", contactId: 1, sendAt: inAnHour(), repeatEvery: 1, selectDaysRecorrenci: "Segunda" });
    assert.equal(badDays.status, 400);
    assert.ok(badDays.body.fields.selectDaysRecorrenci);
    const ghost = await admin.post("/schedules", { body: "Lembrete", contactId: 999999, sendAt: inAnHour() });
    assert.deepEqual([ghost.status, ghost.body.error], [404, "ERR_NO_CONTACT_FOUND"]);
  });
});

Deno.test("/schedules keeps tenants apart and needs the plan's useSchedules", async () => {
  await withServer(async (server) => {
    const companyId = server.demo!.companyId;
    const admin = await server.login("admin@demo.local");
    const contact = await makeContact(server, companyId);
    const mine = await admin.post("/schedules", { body: "Só da Demo", contactId: contact.id, sendAt: inAnHour() });
    assert.equal(mine.status, 200);

    const other = await createTenant(server, "Outra Agenda");
    assert.equal((await other.admin.get("/schedules")).body.count, 0);
    assert.equal((await other.admin.get(`/schedules/${mine.body.id}`)).status, 404);
    assert.equal((await other.admin.put(`/schedules/${mine.body.id}`, { body: "Tomada" })).status, 404);
    assert.equal((await other.admin.delete(`/schedules/${mine.body.id}`)).status, 404);
    const foreign = await other.admin.post("/schedules", { body: "Contato alheio", contactId: contact.id, sendAt: inAnHour() });
    assert.deepEqual([foreign.status, foreign.body.error], [404, "ERR_NO_CONTACT_FOUND"]);
    assert.equal((await admin.get(`/schedules/${mine.body.id}`)).body.body, "Só da Demo");

    const owner = await server.login("super@balcao.local");
    assert.equal((await owner.put(`/plans/${server.demo!.planId}`, { useSchedules: false })).status, 200);
    const refused = await admin.get("/schedules");
    assert.deepEqual([refused.status, refused.body.error, refused.body.message], [403, "ERR_PLAN_FEATURE", UPGRADE_TEXT]);
    assert.equal((await admin.post("/schedules", { body: "Sem plano", contactId: contact.id, sendAt: inAnHour() })).status, 403);
  });
});

Deno.test("a due schedule goes out through the simulator, opens the ticket to its user and is ENVIADA; edits then refused", async () => {
  await withServer(async (server) => {
    const companyId = server.demo!.companyId;
    const admin = await server.login("admin@demo.local");
    const { user: agent, client: agentClient } = await makeUser(server, companyId, { queueIds: server.demo!.queueIds });
    const number = freshNumber();
    const contact = await makeContact(server, companyId, { number, name: "Cliente Agendado" });
    const conn = await demoConnection(server);
    const phone = await server.deps.channels.simulator(companyId, conn.id);

    const post = await agentClient.post("/schedules", form({
      body: "Sua encomenda chega hoje",
      contactId: contact.id,
      sendAt: new Date(Date.now() + 400).toISOString(),
      whatsappId: conn.id,
      queueId: server.demo!.queueIds[0],
      geral: true,
      atribuirUser: true,
    }, new File([new Uint8Array([137, 80, 78, 71])], "nota.png", { type: "image/png" })));
    assert.equal(post.status, 200, JSON.stringify(post.body));
    assert.equal(post.body.userId, agent.id);
    // A plain user assigns only to itself.
    const forOther = await agentClient.post("/schedules", { body: "Para outro agente", contactId: contact.id, sendAt: inAnHour(), geral: true, atribuirUser: true, userId: (await makeUser(server, companyId)).user.id });
    assert.equal(forOther.status, 403);

    await eventually(() => phone.outbox.find((e) => e.to === number && e.body === "Sua encomenda chega hoje"), 10_000, "the simulator's copy");
    const sent = await eventually(async () => {
      const r = await admin.get(`/schedules/${post.body.id}`);
      return r.body.status === "ENVIADA" ? r.body : undefined;
    }, 10_000, "ENVIADA");
    assert.ok(sent.sentAt && sent.ticketId);
    const ticket = await admin.get(`/tickets/${sent.ticketId}`);
    assert.deepEqual([ticket.body.status, ticket.body.userId, ticket.body.contactId], ["open", agent.id, contact.id]);
    const messages = await admin.get(`/messages/${sent.ticketId}`);
    const stored = messages.body.messages.find((m: { body: string }) => m.body === "Sua encomenda chega hoje");
    assert.ok(stored, "stored in the contact's ticket");
    assert.deepEqual([stored.fromMe, stored.mediaType], [true, "image"]);
    assert.equal(phone.outbox.filter((e) => e.to === number).length, 1);

    const late = await admin.put(`/schedules/${post.body.id}`, { body: "Tarde demais" });
    assert.equal(late.status, 409);
  });
});
