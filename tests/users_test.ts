import assert from "node:assert/strict";
import { DEMO_PASSWORD, withServer } from "./helpers/server.ts";

Deno.test("GET /users/ and GET /users page and search the company's users", async () => {
  await withServer(async (server) => {
    const agent = await server.login("agent@demo.local");
    for (const path of ["/users/", "/users"]) {
      const r = await agent.get(path);
      assert.equal(r.status, 200, path);
      assert.equal(r.body.count, 3);
      assert.equal(r.body.hasMore, false);
      assert.deepEqual(r.body.users.map((u: { email: string }) => u.email).sort(), [
        "admin@demo.local",
        "agent@demo.local",
        "supervisor@demo.local",
      ]);
      assert.equal(r.body.users[0].passwordHash, undefined);
      assert.equal(r.body.users[0].tokenVersion, undefined);
    }
    const found = await agent.get("/users/?searchParam=SERGIO");
    assert.deepEqual(found.body.users.map((u: { name: string }) => u.name), ["Sérgio Supervisor"]);
    const agentRow = (await agent.get("/users/?searchParam=agent@")).body.users[0];
    assert.deepEqual(agentRow.queues.map((q: { name: string }) => q.name), ["Suporte"]);

    const admin = await server.login("admin@demo.local");
    for (let i = 0; i < 22; i++) {
      const r = await admin.post("/users", { name: `Pessoa ${i}`, email: `p${i}@demo.local`, password: "12345" });
      assert.equal(r.status, 201);
    }
    const page1 = await admin.get("/users/?pageNumber=1");
    assert.equal(page1.body.users.length, 20);
    assert.equal(page1.body.count, 25);
    assert.equal(page1.body.hasMore, true);
    const page2 = await admin.get("/users/?pageNumber=2");
    assert.equal(page2.body.users.length, 5);
    assert.equal(page2.body.hasMore, false);
    const list = await admin.get("/users/list");
    assert.equal(list.status, 200);
    assert.equal(list.body.length, 25);
  });
});

Deno.test("POST /users validates with the spec's texts and keeps e-mails unique", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const bad = await admin.post("/users", { name: "A", email: "nope", password: "1" });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error, "ERR_VALIDATION");
    assert.deepEqual(bad.body.fields, { name: "Too Short!", email: "Invalid email", password: "Too Short!" });
    const long = await admin.post("/users", { name: "x".repeat(51), email: "a@b.co", password: "x".repeat(51) });
    assert.deepEqual(long.body.fields, { name: "Too Long!", password: "Too Long!" });
    const missing = await admin.post("/users", {});
    assert.equal(missing.body.fields.name, "Required");
    assert.equal(missing.body.fields.email, "Required");

    const dup = await admin.post("/users", { name: "Outro", email: "SUPER@balcao.local", password: "12345" });
    assert.equal(dup.status, 409);
    assert.equal(dup.body.error, "ERR_DUPLICATED_EMAIL");

    const created = await admin.post("/users", {
      name: "Nova",
      email: "nova@demo.local",
      password: "12345",
      profile: "supervisor",
      queueIds: [server.demo!.queueIds[1]],
    });
    assert.equal(created.status, 201);
    assert.equal(created.body.profile, "supervisor");
    assert.deepEqual(created.body.queues.map((q: { name: string }) => q.name), ["Vendas"]);
    assert.equal(created.body.companyId, server.demo!.companyId);
    await server.login("nova@demo.local", "12345");

    const foreignQueue = await admin.post("/users", { name: "Fila", email: "f@demo.local", password: "12345", queueIds: [999] });
    assert.equal(foreignQueue.status, 404);
    assert.equal(foreignQueue.body.error, "ERR_NO_QUEUE_FOUND");
  });
});

Deno.test("POST /users is for admins, super only by super, within the plan's user limit", async () => {
  await withServer(async (server) => {
    const supervisor = await server.login("supervisor@demo.local");
    const r = await supervisor.post("/users", { name: "Nova", email: "n@demo.local", password: "12345" });
    assert.equal(r.status, 403);
    assert.equal(r.body.error, "ERR_NO_PERMISSION");
    const admin = await server.login("admin@demo.local");
    const sup = await admin.post("/users", { name: "Nova", email: "n@demo.local", password: "12345", super: true });
    assert.equal(sup.status, 403);

    const owner = await server.login("super@balcao.local");
    const plan = await owner.put(`/plans/${server.demo!.planId}`, { users: 4 });
    assert.equal(plan.status, 200);
    assert.equal((await admin.post("/users", { name: "Quarta", email: "q4@demo.local", password: "12345" })).status, 201);
    const over = await admin.post("/users", { name: "Quinta", email: "q5@demo.local", password: "12345" });
    assert.equal(over.status, 403);
    assert.equal(over.body.error, "ERR_PLAN_LIMIT");
    assert.equal(over.body.limit, 4);
    assert.match(over.body.message, /allows 4 users/);
    // The refused creation left nothing behind.
    assert.equal((await admin.get("/users/?searchParam=q5@")).body.users.length, 0);
  });
});

Deno.test("PUT /users/{id}: a plain user edits only itself and only its own fields", async () => {
  await withServer(async (server) => {
    const agent = await server.login("agent@demo.local");
    const me = (await agent.get("/auth/me")).body;
    const admin = await server.login("admin@demo.local");
    const adminId = (await admin.get("/auth/me")).body.id;

    const own = await agent.put(`/users/${me.id}`, {
      name: "Alice Nova",
      email: "agent@demo.local",
      profile: "user",
      queueIds: me.queueIds,
      farewellMessage: "Até logo",
    });
    assert.equal(own.status, 200, JSON.stringify(own.body));
    assert.equal(own.body.name, "Alice Nova");
    assert.equal(own.body.farewellMessage, "Até logo");

    assert.equal((await agent.put(`/users/${me.id}`, { profile: "admin" })).status, 403);
    assert.equal((await agent.put(`/users/${me.id}`, { queueIds: server.demo!.queueIds })).status, 403);
    assert.equal((await agent.put(`/users/${adminId}`, { name: "Hacked" })).status, 403);
    assert.equal((await admin.get(`/users/${adminId}`)).body.name, "Ana Admin");

    const promoted = await admin.put(`/users/${me.id}`, { profile: "supervisor", queueIds: server.demo!.queueIds });
    assert.equal(promoted.status, 200);
    assert.equal(promoted.body.profile, "supervisor");
    assert.equal(promoted.body.queues.length, 2);
    assert.equal((await admin.put(`/users/${me.id}`, { super: true })).status, 403);
    const bad = await admin.put(`/users/${me.id}`, { name: "A" });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.fields.name, "Too Short!");
    const dup = await admin.put(`/users/${me.id}`, { email: "admin@demo.local" });
    assert.equal(dup.status, 409);
  });
});

Deno.test("PUT /users/{id} with a new password revokes the user's refresh and access tokens", async () => {
  await withServer(async (server) => {
    const agent = await server.login("agent@demo.local");
    const me = (await agent.get("/auth/me")).body;
    assert.equal((await agent.post("/auth/refresh_token")).status, 200);
    const changed = await agent.put(`/users/${me.id}`, { password: "novasenha", currentPassword: DEMO_PASSWORD });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.equal((await agent.post("/auth/refresh_token")).status, 401);
    // The access token issued before the change is revoked at once too.
    assert.equal((await agent.get("/auth/me")).status, 401);
    const renewed = await server.login("agent@demo.local", "novasenha");
    const empty = await renewed.put(`/users/${me.id}`, { password: "", name: "Alice" });
    assert.equal(empty.status, 200);
    await server.login("agent@demo.local", "novasenha");
  });
});

Deno.test("PUT /users/{own id}: a stolen access token alone changes neither the password nor the e-mail (#38)", async () => {
  await withServer(async (server) => {
    const stolen = await server.login("agent@demo.local");
    const me = (await stolen.get("/auth/me")).body;

    const password = await stolen.put(`/users/${me.id}`, { password: "tomada1" });
    assert.equal(password.status, 400);
    assert.deepEqual(password.body.fields, { currentPassword: "Required" });
    const email = await stolen.put(`/users/${me.id}`, { email: "ladrao@fora.example" });
    assert.equal(email.status, 400);
    assert.deepEqual(email.body.fields, { currentPassword: "Required" });
    const guessed = await stolen.put(`/users/${me.id}`, { password: "tomada1", currentPassword: "chute123" });
    assert.equal(guessed.status, 400);
    assert.deepEqual(guessed.body.fields, { currentPassword: "Wrong password" });
    // Nothing changed: the old password still logs in, the thief's does not.
    assert.equal((await stolen.get(`/users/${me.id}`)).body.email, "agent@demo.local");
    assert.equal((await server.client().post("/auth/login", { email: "agent@demo.local", password: "tomada1" })).status, 401);
    await server.login("agent@demo.local");

    // The form sends every field: the unchanged e-mail and other fields need nothing more.
    assert.equal((await stolen.put(`/users/${me.id}`, { name: "Alice A.", email: "AGENT@demo.local" })).status, 200);
    // With the current password, the owner changes both.
    const moved = await stolen.put(`/users/${me.id}`, { email: "alice@demo.local", currentPassword: DEMO_PASSWORD });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.equal(moved.body.email, "alice@demo.local");
    // An admin editing itself is asked too.
    const admin = await server.login("admin@demo.local");
    const adminId = (await admin.get("/auth/me")).body.id;
    assert.deepEqual((await admin.put(`/users/${adminId}`, { password: "outra1" })).body.fields, { currentPassword: "Required" });
    // Guessing is held to the login's limit for that user from that address.
    let last = 0;
    for (let i = 0; i < 11 && last !== 429; i++) last = (await admin.put(`/users/${adminId}`, { password: "outra1", currentPassword: `chute${i}` })).status;
    assert.equal(last, 429);
  });
});

Deno.test("PUT /users/{other id}: an admin resets a user's password without theirs, as an audited reset", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const agentId = server.demo!.logins.find((l) => l.email === "agent@demo.local")!.id;
    const reset = await admin.put(`/users/${agentId}`, { password: "redefinida1" });
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
    await server.login("agent@demo.local", "redefinida1");
    const log = (await admin.get("/audit-log?action=user.password")).body;
    assert.equal(log.records.length, 1, JSON.stringify(log));
    assert.equal(log.records[0].target.id, agentId);
    assert.ok(!JSON.stringify(log).includes("redefinida1"));
    // A plain user cannot reset anyone's.
    const agent = await server.login("agent@demo.local", "redefinida1");
    const adminId = (await admin.get("/auth/me")).body.id;
    assert.equal((await agent.put(`/users/${adminId}`, { password: "tomada1" })).status, 403);
  });
});

Deno.test("DELETE /users/{id} is for admins, refuses oneself, 404 afterwards, publishes the event", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const adminId = (await admin.get("/auth/me")).body.id;
    const created = (await admin.post("/users", { name: "Temp", email: "t@demo.local", password: "12345" })).body;
    const agent = await server.login("agent@demo.local");
    assert.equal((await agent.delete(`/users/${created.id}`)).status, 403);
    const self = await admin.delete(`/users/${adminId}`);
    assert.equal(self.status, 403);
    assert.equal(self.body.error, "ERR_NO_PERMISSION");

    const events: unknown[] = [];
    const off = server.deps.bus.subscribe((e) => {
      if (e.channel === `company-${server.demo!.companyId}-user`) events.push(e.data);
    });
    const gone = await admin.delete(`/users/${created.id}`);
    assert.equal(gone.status, 200);
    const again = await admin.get(`/users/${created.id}`);
    assert.equal(again.status, 404);
    assert.equal(again.body.error, "ERR_NO_USER_FOUND");
    assert.equal((await admin.delete(`/users/${created.id}`)).status, 404);
    off();
    // The reply is released only after the commit, and events are published with it.
    assert.deepEqual(events, [{ action: "delete", userId: created.id }]);
  });
});

Deno.test("PUT and DELETE /users/{id} refuse a supervisor's writes to other users", async () => {
  await withServer(async (server) => {
    const supervisor = await server.login("supervisor@demo.local");
    const agent = await server.login("agent@demo.local");
    const agentId = (await agent.get("/auth/me")).body.id;
    const put = await supervisor.put(`/users/${agentId}`, { name: "Renomeada" });
    assert.equal(put.status, 403);
    assert.equal(put.body.error, "ERR_NO_PERMISSION");
    const del = await supervisor.delete(`/users/${agentId}`);
    assert.equal(del.status, 403);
    assert.equal((await supervisor.get(`/users/${agentId}`)).body.name, "Alice Atendente");
  });
});
