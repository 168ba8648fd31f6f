/** Wallets over real HTTP: who may assign a contact, and GET /wallets/contacts/ per role. */
import assert from "node:assert/strict";
import { type TestServer, withServer } from "./helpers/server.ts";
import { createTenant } from "./helpers/tenants.ts";

function userId(server: TestServer, email: string): number {
  return server.demo!.logins.find((l) => l.email === email)!.id;
}

Deno.test("walleteUserId: a plain user assigns only itself and cannot take another's contact", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const agent = await server.login("agent@demo.local");
    const agentId = userId(server, "agent@demo.local");
    const supervisorId = userId(server, "supervisor@demo.local");
    const c = (await admin.post("/contacts", { name: "Carteira", number: "5511933330000" })).body;

    const other = await agent.put(`/contacts/${c.id}`, { walleteUserId: supervisorId });
    assert.equal(other.status, 403);
    const self = await agent.put(`/contacts/${c.id}`, { walleteUserId: agentId });
    assert.equal(self.status, 200);
    assert.equal(self.body.walleteUserId, agentId);

    const moved = await admin.put(`/contacts/${c.id}`, { walleteUserId: supervisorId });
    assert.equal(moved.body.walleteUserId, supervisorId);
    const taken = await agent.put(`/contacts/${c.id}`, { walleteUserId: agentId });
    assert.equal(taken.status, 403);
    assert.equal(taken.body.message, "O contato: Carteira já está adicionado a uma carteira.");
    const cleared = await agent.put(`/contacts/${c.id}`, { walleteUserId: null });
    assert.equal(cleared.status, 403);

    const created = await agent.post("/contacts", {
      name: "Meu",
      number: "5511944440000",
      walleteUserId: supervisorId,
    });
    assert.equal(created.status, 403);
    const unknownUser = await admin.put(`/contacts/${c.id}`, { walleteUserId: 9999 });
    assert.equal(unknownUser.status, 404);

    const mine = await agent.post("/contacts", {
      name: "Meu",
      number: "5511944440000",
      walleteUserId: agentId,
    });
    assert.equal(mine.status, 200);
    const wallet = await agent.get("/wallets/contacts/");
    assert.deepEqual(wallet.body.contacts.map((x: { name: string }) => x.name), ["Meu"]);
    assert.deepEqual(wallet.body.contacts[0].walleteUser, { id: agentId, name: "Alice Atendente" });
    assert.equal(wallet.body.hasMore, false);
    const all = await admin.get("/wallets/contacts/?searchParam=");
    assert.deepEqual(all.body.contacts.map((x: { name: string }) => x.name), ["Carteira", "Meu"]);
    const removed = await agent.put(`/contacts/${mine.body.id}`, { walleteUserId: null });
    assert.equal(removed.body.walleteUserId, null);
  });
});

Deno.test("walleteUserId accepts '' and 0 as no wallet", async () => {
  await withServer(async (server) => {
    const agent = await server.login("agent@demo.local");
    const created = await agent.post("/contacts", {
      name: "Sem carteira",
      number: "5511977770000",
      walleteUserId: "",
    });
    assert.equal(created.status, 200);
    assert.equal(created.body.walleteUserId, null);
    const zero = await agent.put(`/contacts/${created.body.id}`, { walleteUserId: 0 });
    assert.equal(zero.status, 200);
    assert.equal(zero.body.walleteUserId, null);
  });
});

Deno.test("PUT /wallets/contacts assigns many contacts for admin only, within the company", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const supervisor = await server.login("supervisor@demo.local");
    const agentId = userId(server, "agent@demo.local");
    const ids = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await admin.post("/contacts", { name: `Lote ${i}`, number: `551197777000${i}` })).body.id);
    }
    const other = await createTenant(server, "Vizinha");
    const foreign = (await other.admin.post("/contacts", { name: "Alheio", number: "5511977771111" })).body;

    const refused = await supervisor.put("/wallets/contacts", { contactIds: ids, walleteUserId: agentId });
    assert.equal(refused.status, 403);
    const empty = await admin.put("/wallets/contacts", { contactIds: [], walleteUserId: agentId });
    assert.equal(empty.status, 400);
    const strangerUser = await admin.put("/wallets/contacts", { contactIds: ids, walleteUserId: other.adminId });
    assert.equal(strangerUser.status, 404);
    assert.equal(strangerUser.body.error, "ERR_NO_USER_FOUND");

    const done = await admin.put("/wallets/contacts", { contactIds: [...ids, foreign.id], walleteUserId: agentId });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(done.body.count, 3);
    for (const id of ids) assert.equal((await admin.get(`/contacts/${id}`)).body.walleteUserId, agentId);
    assert.equal((await other.admin.get(`/contacts/${foreign.id}`)).body.walleteUserId, null);

    const cleared = await admin.put("/wallets/contacts", { contactIds: ids.slice(0, 1), walleteUserId: null });
    assert.equal(cleared.body.count, 1);
    assert.equal((await admin.get(`/contacts/${ids[0]}`)).body.walleteUserId, null);
  });
});
