/** Wallets over real HTTP: who may assign a contact, and GET /wallets/contacts/ per role. */
import assert from "node:assert/strict";
import { type TestServer, withServer } from "./helpers/server.ts";
import { createTenant } from "./helpers/tenants.ts";
import { freshNumber } from "./helpers/messages.ts";

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

Deno.test("GET /wallets/contacts/: an agent reads only its own wallet, an admin any user's by userId", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const agent = await server.login("agent@demo.local");
    const agentId = userId(server, "agent@demo.local");
    const supervisorId = userId(server, "supervisor@demo.local");
    for (const [name, owner] of [["Da Alice", agentId], ["Do Sergio", supervisorId], ["De ninguém", null]] as const) {
      const made = await admin.post("/contacts", { name, number: freshNumber(), walleteUserId: owner });
      assert.equal(made.status, 200, JSON.stringify(made.body));
    }
    const names = (body: { contacts: Array<{ name: string }> }) => body.contacts.map((x) => x.name).sort();

    assert.deepEqual(names((await agent.get("/wallets/contacts/")).body), ["Da Alice"]);
    assert.deepEqual(names((await agent.get(`/wallets/contacts/?userId=${agentId}`)).body), ["Da Alice"]);
    const spying = await agent.get(`/wallets/contacts/?userId=${supervisorId}`);
    assert.equal(spying.status, 403);
    assert.equal(spying.body.error, "ERR_NO_PERMISSION");

    assert.deepEqual(names((await admin.get("/wallets/contacts/")).body), ["Da Alice", "Do Sergio"]);
    assert.deepEqual(names((await admin.get(`/wallets/contacts/?userId=${supervisorId}`)).body), ["Do Sergio"]);
    assert.deepEqual(names((await admin.get(`/wallets/contacts/?userId=${agentId}&searchParam=alice`)).body), ["Da Alice"]);
    assert.deepEqual(names((await admin.get(`/wallets/contacts/?userId=${agentId}&searchParam=sergio`)).body), []);
    const stranger = await createTenant(server, "Vizinha");
    assert.equal((await admin.get(`/wallets/contacts/?userId=${stranger.adminId}`)).status, 404);
    assert.equal((await stranger.admin.get("/wallets/contacts/")).body.count, 0, "another company sees none");

    // Paging: 20 a page with hasMore.
    for (let i = 0; i < 21; i++) {
      await admin.post("/contacts", { name: `Lote ${String(i).padStart(2, "0")}`, number: `5511988${String(i).padStart(6, "0")}`, walleteUserId: agentId });
    }
    const first = (await agent.get("/wallets/contacts/?pageNumber=1")).body;
    assert.equal(first.contacts.length, 20);
    assert.equal(first.hasMore, true);
    const second = (await agent.get("/wallets/contacts/?pageNumber=2")).body;
    assert.equal(second.contacts.length, 2);
    assert.equal(second.hasMore, false);

    // Remove from the wallet: the row's PUT /contacts/{id} clears walleteUserId.
    const mine = first.contacts[0];
    assert.equal((await agent.put(`/contacts/${mine.id}`, { walleteUserId: null })).body.walleteUserId, null);
    assert.equal((await agent.get("/wallets/contacts/")).body.count, 21);
  });
});
