/**
 * WhatsApp groups made from the product (spec 000 §5–§7): POST /creatGroupAndTicket and
 * GET|POST /groupUsers over real HTTP with the demo's simulator connection, and the Baileys
 * adapter's group calls against the fake socket.
 */
import assert from "node:assert/strict";
import type { Whatsapp } from "../domain/whatsapp.ts";
import { BaileysAdapter } from "../server/channels/baileys.ts";
import { demoConnection } from "./helpers/channels.ts";
import { fakeFactory } from "./helpers/fake_baileys.ts";
import { type Client, type TestServer, withServer } from "./helpers/server.ts";
import { createTenant } from "./helpers/tenants.ts";

/** Creates a contact through the API and returns its id. */
async function contact(admin: Client, name: string, number: string): Promise<number> {
  const r = await admin.post("/contacts", { name, number });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.id;
}

/** The demo's connection id, three contacts and the login ids. */
async function setup(server: TestServer) {
  const admin = await server.login("admin@demo.local");
  const conn = await demoConnection(admin);
  const ids = [
    await contact(admin, "Ana Grupo", "5511911110001"),
    await contact(admin, "Bruno Grupo", "5511911110002"),
    await contact(admin, "Carla Grupo", "5511911110003"),
  ];
  const userId = (email: string) => server.demo!.logins.find((l) => l.email === email)!.id;
  const [support, sales] = server.demo!.queueIds;
  return { admin, whatsappId: conn.id, ids, userId, support, sales, companyId: server.demo!.companyId };
}

Deno.test("POST /creatGroupAndTicket creates the WhatsApp group, its contact and an open ticket; /groupUsers lists and adds", async () => {
  await withServer(async (server) => {
    const s = await setup(server);
    const created = await s.admin.post("/creatGroupAndTicket", {
      contactsAddGroup: [s.ids[0], s.ids[1]],
      titleGroup: "  Clientes VIP ",
      queueId: s.support,
      whatsappId: s.whatsappId,
      userId: s.userId("admin@demo.local"),
      status: "open",
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const ticket = created.body;
    assert.equal(ticket.status, "open");
    assert.equal(ticket.isGroup, true);
    assert.equal(ticket.userId, s.userId("admin@demo.local"));
    assert.equal(ticket.queueId, s.support);
    assert.equal(ticket.whatsappId, s.whatsappId);
    assert.equal(ticket.contact.name, "Clientes VIP");
    assert.match(ticket.contact.number, /^120363\d+$/);
    assert.ok(typeof ticket.uuid === "string");

    // The group exists on the simulator's phone with both contacts.
    const phone = await server.deps.channels.simulator(s.companyId, s.whatsappId);
    const group = phone.groups.get(ticket.contact.number);
    assert.equal(group?.title, "Clientes VIP");
    assert.deepEqual([...group!.participants].sort(), ["5511911110001", "5511911110002"]);

    // The ticket is in the open groups list of its owner.
    const list = await s.admin.get("/tickets?status=open&isGroup=true");
    assert.ok(list.body.tickets.some((t: { id: number }) => t.id === ticket.id), JSON.stringify(list.body));

    const users = await s.admin.get(`/groupUsers?groupId=${ticket.id}`);
    assert.equal(users.status, 200, JSON.stringify(users.body));
    assert.deepEqual(users.body.map((u: { id: number }) => u.id).sort(), [s.ids[0], s.ids[1]].sort());

    const added = await s.admin.post("/groupUsers", { groupId: ticket.id, users: [s.ids[2]] });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    assert.deepEqual(added.body.map((u: { id: number }) => u.id).sort(), [...s.ids].sort());
    assert.equal(group!.participants.size, 3);

    // A participant the company has no contact for is listed by number.
    await phone.addGroupParticipants(ticket.contact.number, ["5511922223333"]);
    const again = await s.admin.get(`/groupUsers?groupId=${ticket.id}`);
    assert.ok(again.body.some((u: { id: null; number: string }) => u.id === null && u.number === "5511922223333"));

    // Not a group ticket: refused.
    const single = await s.admin.post("/tickets", { contactId: s.ids[0], queueId: s.support, whatsappId: s.whatsappId, status: "open" });
    assert.equal(single.status, 200, JSON.stringify(single.body));
    const notGroup = await s.admin.get(`/groupUsers?groupId=${single.body.id}`);
    assert.equal(notGroup.status, 400);
  });
});

Deno.test("POST /creatGroupAndTicket validates queue, connection, contacts and the connection's state", async () => {
  await withServer(async (server) => {
    const s = await setup(server);
    const base = { contactsAddGroup: [s.ids[0]], titleGroup: "Grupo", queueId: s.support, whatsappId: s.whatsappId, status: "open" };

    const noQueue = await s.admin.post("/creatGroupAndTicket", { ...base, queueId: "" });
    assert.equal(noQueue.status, 400);
    assert.equal(noQueue.body.error, "ERR_VALIDATION");
    assert.equal(noQueue.body.fields.queueId, "Selecione uma fila!");

    const noConn = await s.admin.post("/creatGroupAndTicket", { ...base, whatsappId: null });
    assert.equal(noConn.status, 400);
    assert.equal(noConn.body.fields.whatsappId, "Selecione uma conexão!");

    const noContacts = await s.admin.post("/creatGroupAndTicket", { ...base, contactsAddGroup: [] });
    assert.equal(noContacts.status, 400);
    assert.equal(noContacts.body.fields.contactsAddGroup, "Selecione pelo menos um contato");

    const noTitle = await s.admin.post("/creatGroupAndTicket", { ...base, titleGroup: " " });
    assert.equal(noTitle.status, 400);
    assert.ok(noTitle.body.fields.titleGroup);

    assert.equal((await s.admin.post("/creatGroupAndTicket", { ...base, contactsAddGroup: [999999] })).status, 404);
    assert.equal((await s.admin.post("/creatGroupAndTicket", { ...base, queueId: 999999 })).body.error, "ERR_NO_QUEUE_FOUND");
    assert.equal((await s.admin.post("/creatGroupAndTicket", { ...base, whatsappId: 999999 })).body.error, "ERR_NO_WAPP_FOUND");

    // The phone is down: nothing is created.
    const phone = await server.deps.channels.simulator(s.companyId, s.whatsappId);
    const before = phone.groups.size;
    await server.deps.channels.stop(s.companyId, s.whatsappId);
    const down = await s.admin.post("/creatGroupAndTicket", base);
    assert.equal(down.status, 400, JSON.stringify(down.body));
    assert.equal(down.body.error, "ERR_WAPP_NOT_INITIALIZED");
    assert.equal(phone.groups.size, before);
  });
});

Deno.test("Group users are managed by an admin or the ticket owner; a user opens groups only in its own queues, for itself", async () => {
  await withServer(async (server) => {
    const s = await setup(server);
    const agent = await server.login("agent@demo.local");
    const supervisor = await server.login("supervisor@demo.local");
    const base = { contactsAddGroup: [s.ids[0], s.ids[1]], titleGroup: "Equipe", whatsappId: s.whatsappId, status: "open" };

    // A profile user: the caller by default, only its own queue, never for someone else.
    const own = await agent.post("/creatGroupAndTicket", { ...base, queueId: s.support });
    assert.equal(own.status, 200, JSON.stringify(own.body));
    assert.equal(own.body.userId, s.userId("agent@demo.local"));
    const otherQueue = await agent.post("/creatGroupAndTicket", { ...base, queueId: s.sales });
    assert.equal(otherQueue.status, 403, JSON.stringify(otherQueue.body));
    const forAdmin = await agent.post("/creatGroupAndTicket", { ...base, queueId: s.support, userId: s.userId("admin@demo.local") });
    assert.equal(forAdmin.status, 403, JSON.stringify(forAdmin.body));
    const phone = await server.deps.channels.simulator(s.companyId, s.whatsappId);
    assert.equal(phone.groups.size, 1, "refused calls leave no group behind");

    const id = own.body.id;
    assert.equal((await agent.get(`/groupUsers?groupId=${id}`)).status, 200);
    assert.equal((await s.admin.get(`/groupUsers?groupId=${id}`)).status, 200);
    const bySupervisor = await supervisor.get(`/groupUsers?groupId=${id}`);
    assert.equal(bySupervisor.status, 403);
    assert.equal(bySupervisor.body.error, "ERR_NO_PERMISSION");
    assert.equal((await supervisor.post("/groupUsers", { groupId: id, users: [s.ids[2]] })).status, 403);
    assert.equal((await agent.post("/groupUsers", { groupId: id, users: [s.ids[2]] })).status, 200);
    const noUsers = await agent.post("/groupUsers", { groupId: id, users: [] });
    assert.equal(noUsers.body.fields.users, "Selecione pelo menos um contato");
    assert.equal((await agent.get("/groupUsers?groupId=999999")).status, 404);
  });
});

Deno.test("Group calls do not cross companies", async () => {
  await withServer(async (server) => {
    const s = await setup(server);
    const created = await s.admin.post("/creatGroupAndTicket", {
      contactsAddGroup: [s.ids[0]],
      titleGroup: "Demo",
      queueId: s.support,
      whatsappId: s.whatsappId,
      status: "open",
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const other = await createTenant(server, "Outra Loja");
    const get = await other.admin.get(`/groupUsers?groupId=${created.body.id}`);
    assert.equal(get.status, 404);
    assert.equal(get.body.error, "ERR_NO_TICKET_FOUND");
    assert.equal((await other.admin.post("/groupUsers", { groupId: created.body.id, users: [s.ids[1]] })).status, 404);
    const theirQueue = await other.admin.post("/queue", { name: "Fila", color: "#123456", prioridade: 0 });
    assert.equal(theirQueue.status, 200, JSON.stringify(theirQueue.body));
    const foreign = await other.admin.post("/creatGroupAndTicket", {
      contactsAddGroup: [s.ids[0]],
      titleGroup: "Alheio",
      queueId: theirQueue.body.id,
      whatsappId: s.whatsappId,
      status: "open",
    });
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.error, "ERR_NO_WAPP_FOUND");
  });
});

Deno.test("BaileysAdapter creates groups, lists and adds participants through the socket", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const fake = fakeFactory();
    const adapter = new BaileysAdapter({ companyId: 1, whatsappId: 2, kv, record: {} as Whatsapp, emit: () => {} }, fake.factory);
    await adapter.start();
    await assert.rejects(adapter.createGroup("G", ["5511911110001"]), /not connected/);
    fake.sockets[0].open("5511999990000");
    const { id } = await adapter.createGroup("G", ["5511911110001", "5511911110002"]);
    assert.match(id, /^120363\d+$/);
    assert.deepEqual(fake.sockets[0].groups.get(`${id}@g.us`)?.participants, ["5511911110001@s.whatsapp.net", "5511911110002@s.whatsapp.net"]);
    await adapter.addGroupParticipants(id, ["5511911110003"]);
    assert.deepEqual(await adapter.groupParticipants(id), ["5511911110001", "5511911110002", "5511911110003"]);
    await adapter.stop();
  } finally {
    kv.close();
  }
});
