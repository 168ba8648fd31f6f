/** Contacts API over real HTTP: validation, duplicates, wallet rules, permissions, isolation. */
import assert from "node:assert/strict";
import { type Client, type TestServer, withServer } from "./helpers/server.ts";

/** A company other than Demo with its own admin, for isolation checks. */
async function otherCompanyAdmin(server: TestServer): Promise<Client> {
  const { createCompany, createUser } = await import("../actors/platform/commands.ts");
  const { hashPassword } = await import("../server/auth/passwords.ts");
  const { system } = server.deps;
  const company = await createCompany(system, {
    name: "Outra",
    email: "admin@outra.local",
    planId: server.demo!.planId,
    dueDate: Date.now() + 30 * 86_400_000,
  });
  await createUser(system, {
    companyId: company.id,
    name: "Outra Admin",
    email: "admin@outra.local",
    passwordHash: await hashPassword("demo1234", "fast"),
    profile: "admin",
  });
  return await server.login("admin@outra.local");
}

Deno.test("POST /contacts validates with the spec's texts and normalises the number", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const bad = await admin.post("/contacts", { name: "A", number: "12-34", email: "x@" });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error, "ERR_VALIDATION");
    assert.deepEqual(bad.body.fields, {
      name: "Too Short!",
      number: "Too Short!",
      email: "Invalid email",
    });
    const missing = await admin.post("/contacts", {});
    assert.equal(missing.body.fields.name, "Required");
    const long = await admin.post("/contacts", { name: "x".repeat(51), number: "5511999998888" });
    assert.equal(long.body.fields.name, "Too Long!");

    const ok = await admin.post("/contacts", {
      name: "João Silva",
      number: "+55 (11) 99999-8888",
      email: "joao@example.com",
      extraInfo: [{ name: "CPF", value: "123" }],
    });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.number, "5511999998888");
    assert.equal(ok.body.alreadyExists, false);
    assert.equal(ok.body.invalido, false);
    assert.deepEqual(ok.body.extraInfo, [{ name: "CPF", value: "123" }]);

    const dup = await admin.post("/contacts", { name: "Outro", number: "5511999998888" });
    assert.equal(dup.status, 400);
    assert.equal(dup.body.error, "ERR_DUPLICATED_CONTACT");
    assert.equal(dup.body.alreadyExists, true);
    assert.equal(dup.body.existingContact.id, ok.body.id);

    const report = await admin.post("/contacts?onDuplicate=report", {
      name: "Outro",
      number: "55 11 99999 8888",
    });
    assert.equal(report.status, 200);
    assert.equal(report.body.alreadyExists, true);
    assert.equal(report.body.existingContact.name, "João Silva");

    const fetched = await admin.get(`/contacts/${ok.body.id}`);
    assert.equal(fetched.body.email, "joao@example.com");
  });
});

Deno.test("GET /contacts/ pages 20 by name with search, count and hasMore", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    for (let i = 0; i < 25; i++) {
      const r = await admin.post("/contacts", {
        name: `Cliente ${String(i).padStart(2, "0")}`,
        number: `55119000000${String(i).padStart(2, "0")}`,
      });
      assert.equal(r.status, 200);
    }
    await admin.post("/contacts", { name: "Ângela", number: "5521988887777", email: "ang@x.io" });
    const first = await admin.get("/contacts/?pageNumber=1");
    assert.equal(first.status, 200);
    assert.equal(first.body.contacts.length, 20);
    assert.equal(first.body.count, 26);
    assert.equal(first.body.hasMore, true);
    assert.equal(first.body.contacts[0].name, "Ângela");
    const second = await admin.get("/contacts?pageNumber=2");
    assert.equal(second.body.contacts.length, 6);
    assert.equal(second.body.hasMore, false);
    const byName = await admin.get("/contacts/?searchParam=angela");
    assert.deepEqual(byName.body.contacts.map((c: { name: string }) => c.name), ["Ângela"]);
    const byNumber = await admin.get("/contacts/?searchParam=21988");
    assert.equal(byNumber.body.count, 1);
    const byEmail = await admin.get("/contacts/?searchParam=ang%40x");
    assert.equal(byEmail.body.count, 1);
    const list = await admin.get("/contacts/list");
    assert.equal(list.body.length, 26);
    assert.deepEqual(Object.keys(list.body[0]).sort(), ["id", "name", "number"]);
    const filtered = await admin.get("/contacts/list?searchParam=angela");
    assert.deepEqual(filtered.body.map((x: { name: string }) => x.name), ["Ângela"]);
  });
});

Deno.test("PUT /contacts/{id} edits, refuses a duplicate number and blocks via /contacts/block/{id}", async () => {
  await withServer(async (server) => {
    const agent = await server.login("agent@demo.local");
    const a = (await agent.post("/contacts", { name: "Ana", number: "5511911110000" })).body;
    const b = (await agent.post("/contacts", { name: "Bia", number: "5511922220000" })).body;
    const edit = await agent.put(`/contacts/${a.id}`, { name: "Ana Maria", email: "" });
    assert.equal(edit.status, 200);
    assert.equal(edit.body.name, "Ana Maria");
    assert.equal(edit.body.number, "5511911110000");
    const dup = await agent.put(`/contacts/${b.id}`, { number: "55 11 91111-0000" });
    assert.equal(dup.status, 400);
    assert.equal(dup.body.error, "ERR_DUPLICATED_CONTACT");
    const bad = await agent.put(`/contacts/${b.id}`, { name: "B" });
    assert.equal(bad.body.fields.name, "Too Short!");
    const blocked = await agent.put(`/contacts/block/${a.id}`, { active: false });
    assert.equal(blocked.body.active, false);
    const missing = await agent.put("/contacts/99999", { name: "Nobody" });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error, "ERR_NO_CONTACT_FOUND");
  });
});

Deno.test("DELETE /contacts needs contacts-page:deleteContact; bulk-delete removes many", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const agent = await server.login("agent@demo.local");
    const supervisor = await server.login("supervisor@demo.local");
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) {
      ids.push(
        (await admin.post("/contacts", { name: `Del ${i}`, number: `551190000100${i}` })).body.id,
      );
    }
    const refused = await agent.delete(`/contacts/${ids[0]}`);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error, "ERR_NO_PERMISSION");
    assert.equal((await supervisor.delete(`/contacts/${ids[0]}`)).status, 200);
    assert.equal((await admin.get(`/contacts/${ids[0]}`)).status, 404);
    assert.equal((await admin.delete(`/contacts/${ids[0]}`)).status, 404);
    assert.equal((await agent.delete("/contacts/bulk-delete", { contactIds: ids })).status, 403);
    const bulk = await admin.delete("/contacts/bulk-delete", { contactIds: ids });
    assert.equal(bulk.status, 200);
    assert.equal(bulk.body.count, 3);
    assert.equal((await admin.get("/contacts/")).body.count, 0);
    const empty = await admin.delete("/contacts/bulk-delete", { contactIds: [] });
    assert.equal(empty.status, 400);
  });
});

Deno.test("contacts of another company answer 404 and never show in lists", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const outsider = await otherCompanyAdmin(server);
    const c = (await admin.post("/contacts", { name: "Privado", number: "5511955550000" })).body;
    assert.equal((await outsider.get(`/contacts/${c.id}`)).status, 404);
    assert.equal((await outsider.put(`/contacts/${c.id}`, { name: "Hack" })).status, 404);
    assert.equal((await outsider.delete(`/contacts/${c.id}`)).status, 404);
    assert.equal((await outsider.get("/contacts/")).body.count, 0);
    const same = await outsider.post("/contacts", {
      name: "Mesmo número",
      number: "5511955550000",
    });
    assert.equal(same.status, 200, "numbers are unique per company, not across companies");
    assert.equal((await admin.get(`/contacts/${c.id}`)).body.name, "Privado");
    assert.equal((await admin.get("/contacts/")).status, 200);
    assert.equal((await server.client().get("/contacts/")).status, 401);
  });
});

Deno.test("GET /contacts/nt lists contacts with tickets; /contacts/{id}/active-ticket finds the open one", async () => {
  await withServer(async (server) => {
    const { openTicketForInbound } = await import("../actors/tickets/mod.ts");
    const admin = await server.login("admin@demo.local");
    const withTicket =
      (await admin.post("/contacts", { name: "Com ticket", number: "5511966660000" })).body;
    const without =
      (await admin.post("/contacts", { name: "Sem ticket", number: "5511966661111" })).body;
    const { ticket } = await openTicketForInbound(server.deps.system, server.demo!.companyId, {
      contactId: withTicket.id,
      whatsappId: 1,
      isGroup: false,
      fromMe: false,
      queueId: server.demo!.queueIds[0],
    });
    const nt = await admin.get("/contacts/nt?searchParam=ticket");
    assert.equal(nt.status, 200);
    assert.deepEqual(nt.body.contacts.map((x: { id: number }) => x.id), [withTicket.id]);
    assert.equal(
      nt.body.contacts[0].tickets[0].uuid,
      ticket.uuid,
      "latest ticket = last interaction",
    );
    const listed = await admin.get("/contacts/?searchParam=ticket");
    assert.deepEqual(listed.body.contacts.map((x: { tickets: unknown[] }) => x.tickets.length), [
      1,
      0,
    ]);
    const active = await admin.get(`/contacts/${withTicket.id}/active-ticket`);
    assert.equal(active.status, 200);
    assert.equal(active.body.id, ticket.id);
    assert.equal(active.body.uuid, ticket.uuid);
    const none = await admin.get(`/contacts/${without.id}/active-ticket`);
    assert.equal(none.body, null);
    assert.equal((await admin.get("/contacts/9999/active-ticket")).status, 404);
  });
});
