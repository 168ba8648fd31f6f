/**
 * POST /contacts checks the number through the company's connection (spec 000 §7–§8:
 * `invalido`, a number not on WhatsApp is not saved), GET /contacts/lookup answers a contact
 * card's number without creating anything, and a number already saved answers the spec's
 * 'Contato já cadastrado com o nome {name}'. The demo's simulator says every number a person
 * can have is on WhatsApp but those it is told have no account (server/channels/simulator.ts
 * `offWhatsapp`).
 */
import assert from "node:assert/strict";
import { demoConnection } from "./helpers/channels.ts";
import { type Client, type TestServer, withServer } from "./helpers/server.ts";

/** A mobile number anyone could have, that the tests tell the simulated network has no account. */
const NOT_ON_WHATSAPP = "5511987659999";

/** Tells the demo's simulator that NOT_ON_WHATSAPP has no account. */
async function unregister(server: TestServer, admin: Client): Promise<void> {
  const conn = await demoConnection(admin);
  (await server.deps.channels.simulator(server.demo!.companyId, conn.id)).offWhatsapp(NOT_ON_WHATSAPP);
}

Deno.test("POST /contacts refuses a number not on WhatsApp with ERR_WAPP_INVALID_CONTACT and invalido, and saves nothing", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    await unregister(server, admin);
    const refused = await admin.post("/contacts", { name: "Fora do Zap", number: NOT_ON_WHATSAPP });
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.equal(refused.body.error, "ERR_WAPP_INVALID_CONTACT");
    assert.equal(refused.body.invalido, true);
    assert.equal(refused.body.alreadyExists, false);
    assert.equal(refused.body.existingContact, null);
    const reported = await admin.post("/contacts?onDuplicate=report", { name: "Fora do Zap", number: NOT_ON_WHATSAPP });
    assert.equal(reported.status, 200);
    assert.deepEqual(reported.body, { alreadyExists: false, existingContact: null, invalido: true });
    const listed = await admin.get(`/contacts/?searchParam=${NOT_ON_WHATSAPP}`);
    assert.equal(listed.body.contacts.length, 0, "nothing was saved");

    const saved = await admin.post("/contacts", { name: "No Zap", number: "5511987650000" });
    assert.equal(saved.status, 200);
    assert.equal(saved.body.invalido, false);
  });
});

Deno.test("POST /contacts saves unchecked while the connection cannot check (disconnected)", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    await unregister(server, admin);
    const conn = await demoConnection(admin);
    assert.equal((await admin.post(`/simulator/${conn.id}/disconnect`)).status, 200);
    const saved = await admin.post("/contacts", { name: "Sem Conferir", number: NOT_ON_WHATSAPP });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.equal(saved.body.invalido, false);
    const looked = await admin.get(`/contacts/lookup?number=${NOT_ON_WHATSAPP}`);
    assert.deepEqual(looked.body, {
      contact: { id: saved.body.id, name: "Sem Conferir", number: NOT_ON_WHATSAPP, profilePicUrl: saved.body.profilePicUrl },
      invalido: false,
      checked: false,
    });
  });
});

Deno.test("a number already saved answers 'Contato já cadastrado com o nome {name}'", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    assert.equal((await admin.post("/contacts", { name: "Maria Souza", number: "5511911112222" })).status, 200);
    const dup = await admin.post("/contacts", { name: "Outra Maria", number: "55 11 91111-2222" });
    assert.equal(dup.status, 400);
    assert.equal(dup.body.error, "ERR_DUPLICATED_CONTACT");
    assert.equal(dup.body.message, "Contato já cadastrado com o nome Maria Souza");
  });
});

Deno.test("GET /contacts/lookup finds the contact of a card's number and tells whether it is on WhatsApp, creating nothing", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const agent = await server.login("agent@demo.local");
    await unregister(server, admin);
    const known = (await admin.post("/contacts", { name: "Conhecida", number: "5511933334444" })).body;
    const found = await agent.get("/contacts/lookup?number=%2B55%2011%2093333-4444");
    assert.equal(found.status, 200);
    assert.deepEqual(found.body, {
      contact: { id: known.id, name: "Conhecida", number: "5511933334444", profilePicUrl: known.profilePicUrl },
      invalido: false,
      checked: true,
    });
    const fresh = await agent.get("/contacts/lookup?number=5511955556666");
    assert.deepEqual(fresh.body, { contact: null, invalido: false, checked: true });
    const outside = await agent.get(`/contacts/lookup?number=${NOT_ON_WHATSAPP}`);
    assert.deepEqual(outside.body, { contact: null, invalido: true, checked: true });
    assert.equal((await agent.get("/contacts/lookup?number=12")).status, 400, "a number needs 8 digits");
    assert.equal((await admin.get("/contacts/?searchParam=55119555")).body.contacts.length, 0, "the lookup created nothing");
    assert.equal((await server.client().get("/contacts/lookup?number=5511955556666")).status, 401);
  });
});
