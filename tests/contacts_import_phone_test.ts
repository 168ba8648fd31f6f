/**
 * POST /contacts/import (the phone's address book) and POST /contacts/import/chats (one
 * contact per individual chat) over real HTTP against the demo's simulator phone: counts,
 * known numbers skipped, progress to the importer's socket only, tenant isolation, and the
 * refusals of a connection that is missing, down or unable to list.
 */
import assert from "node:assert/strict";
import { SIMULATOR_PHONE_BOOK, SimulatorAdapter } from "../server/channels/simulator.ts";
import { demoConnection, eventually } from "./helpers/channels.ts";
import type { Client, TestServer } from "./helpers/server.ts";
import { fixtures, markerEvent, withSockets } from "./helpers/ws.ts";

/** The contact whose name or number matches `term` exactly (first page of the search). */
async function findContact(client: Client, term: string): Promise<{ name: string; number: string } | undefined> {
  const r = await client.get(`/contacts/?searchParam=${encodeURIComponent(term)}`);
  return (r.body.contacts as Array<{ name: string; number: string }>).find((c) => c.number === term || c.name === term);
}

/** The demo company's simulator phone (the live adapter of "WhatsApp Demo"). */
async function demoPhone(server: TestServer, admin: Client): Promise<{ id: number; phone: SimulatorAdapter }> {
  const { id } = await demoConnection(admin);
  return { id, phone: await server.deps.channels.simulator(server.demo!.companyId, id) };
}

/** Waits until the connection's record shows `status`. */
function statusOf(admin: Client, id: number, status: string) {
  return eventually(async () => ((await admin.get(`/whatsapp/${id}`)).body.status === status ? true : undefined), 10_000, status);
}

Deno.test("POST /contacts/import creates the phone's contacts, skips known numbers and sends progress to the importer only", async () => {
  await withSockets(async (server, pool) => {
    const companyId = server.demo!.companyId;
    const channel = `company-${companyId}-contactImport`;
    const admin = await server.login("admin@demo.local");
    const agent = await server.login("agent@demo.local");
    const { phone } = await demoPhone(server, admin);
    phone.phoneBook.set("5511955550007", "Zé");
    phone.phoneBook.set("5511955550008", " ");
    phone.phoneBook.set("5511955550009", "Nome muito comprido ".repeat(4));
    phone.phoneBook.set("12345", "Número curto");
    const known = await admin.post("/contacts", { name: "Mariana já cadastrada", number: SIMULATOR_PHONE_BOOK[0].number });
    assert.equal(known.status, 200, JSON.stringify(known.body));
    const adminSocket = await pool.connect(admin.token!);
    const agentSocket = await pool.connect(agent.token!);

    const r = await admin.post("/contacts/import");
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const total = SIMULATOR_PHONE_BOOK.length + 3;
    assert.deepEqual(r.body, {
      valid: total,
      invalid: 1,
      created: total - 1,
      duplicated: 1,
      errors: [{ line: total + 1, field: "number", message: "Too Short!" }],
    });
    await adminSocket.event(channel, (d) => d.action === "progress" && d.done === 0 && d.total === total);
    await adminSocket.event(channel, (d) => d.action === "progress" && d.done === total && d.total === total);
    server.deps.bus.publish(markerEvent(companyId, "after-import"));
    await agentSocket.event(`company-${companyId}-test-marker`);
    assert.deepEqual(agentSocket.eventsOn(channel), [], "progress goes to the importing user only");

    assert.equal((await findContact(admin, "5511976540004"))?.name, "Diego Martins");
    assert.equal((await findContact(admin, "5511955550007"))?.name, "Zé");
    assert.equal((await findContact(admin, "5511955550008"))?.name, "5511955550008", "a nameless contact is named by its number");
    assert.equal((await findContact(admin, "5511955550009"))?.name.length, 50);
    assert.equal((await findContact(admin, SIMULATOR_PHONE_BOOK[0].number))?.name, "Mariana já cadastrada", "a known number is left as it was");

    const again = await agent.post("/contacts/import", {});
    assert.equal(again.status, 200, "any user of the company may import");
    assert.deepEqual([again.body.created, again.body.duplicated], [0, total]);
  });
});

Deno.test("POST /contacts/import/chats creates one contact per individual chat and none for groups", async () => {
  await withSockets(async (server) => {
    const admin = await server.login("admin@demo.local");
    const { id, phone } = await demoPhone(server, admin);
    await admin.post(`/simulator/${id}/inbound`, { from: "5511944440001", name: "Cliente Chat", body: "oi" });
    await admin.post(`/simulator/${id}/inbound`, {
      from: "5511944440002",
      name: "Participante",
      body: "oi grupo",
      isGroup: true,
      groupId: "120363000000000001",
      groupName: "Grupo da Loja",
    });
    phone.chats.set("5511944440003", "");
    phone.phoneBook.set("5511944440003", "Chat Antigo");
    await eventually(() => findContact(admin, "5511944440001"), 10_000, "the inbound path's contact");

    const r = await admin.post("/contacts/import/chats", { whatsappId: id });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body, { valid: 2, invalid: 0, created: 1, duplicated: 1, errors: [] });
    assert.equal((await findContact(admin, "5511944440003"))?.name, "Chat Antigo", "a chat without a name takes the address book's");
    assert.equal(await findContact(admin, "5511944440002"), undefined, "a group participant is not a chat");
    assert.equal(await findContact(admin, "5511976540004"), undefined, "the address book alone is not imported as chats");
  });
});

Deno.test("POST /contacts/import is per company: another company sees none of the contacts and cannot use the connection", async () => {
  await withSockets(async (server) => {
    const admin = await server.login("admin@demo.local");
    const { id } = await demoPhone(server, admin);
    assert.equal((await admin.post("/contacts/import")).status, 200);

    const company = await fixtures.company(server, "Outra Loja");
    const user = await fixtures.user(server, { companyId: company.id, email: "admin@outra.local", profile: "admin" });
    const other = server.client(await fixtures.token(server, user));
    const none = await other.post("/contacts/import");
    assert.equal(none.status, 400);
    assert.equal(none.body.error, "ERR_WAPP_NOT_INITIALIZED", "a company without a connection");
    const foreign = await other.post("/contacts/import/chats", { whatsappId: id });
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.error, "ERR_NO_WAPP_FOUND");
    const list = await other.get("/contacts/");
    assert.equal(list.status, 200);
    assert.equal(list.body.count, 0);
    assert.equal((await other.get("/contacts/?searchParam=Diego")).body.contacts.length, 0);
  });
});

Deno.test("POST /contacts/import refuses a disconnected connection with ERR_WAPP_NOT_INITIALIZED and a phone that cannot list with 501", async () => {
  await withSockets(async (server) => {
    const admin = await server.login("admin@demo.local");
    const { id } = await demoPhone(server, admin);
    await admin.post(`/simulator/${id}/disconnect`);
    await statusOf(admin, id, "DISCONNECTED");
    for (const path of ["/contacts/import", "/contacts/import/chats"]) {
      const refused = await admin.post(path);
      assert.equal(refused.status, 400, path);
      assert.equal(refused.body.error, "ERR_WAPP_NOT_INITIALIZED", path);
    }
    assert.equal((await admin.get("/contacts/?searchParam=Diego")).body.contacts.length, 0);

    // A provider whose adapter has no listing (as a future engine might not).
    server.deps.channels.setFactory("simulator", (ctx) => {
      const adapter = new SimulatorAdapter(ctx);
      Object.defineProperty(adapter, "phoneContacts", { value: undefined });
      return adapter;
    });
    const created = await admin.post("/whatsapp", { name: "Sem agenda" });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    await admin.post(`/simulator/${created.body.id}/scan`);
    await statusOf(admin, created.body.id, "CONNECTED");
    const unable = await admin.post("/contacts/import", { whatsappId: created.body.id });
    assert.equal(unable.status, 501);
    assert.equal(unable.body.error, "ERR_WAPP_NOT_INITIALIZED");
    assert.match(unable.body.message, /cannot list its contacts/);
  });
});
