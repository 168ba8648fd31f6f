import assert from "node:assert/strict";
import { withServer } from "./helpers/server.ts";

Deno.test("POST /auth/login returns token and user with company, settings and queues", async () => {
  await withServer(async (server) => {
    const anon = server.client();
    const result = await anon.post("/auth/login", { email: "agent@demo.local", password: "demo1234" });
    assert.equal(result.status, 200);
    assert.equal(typeof result.body.token, "string");
    const user = result.body.user;
    assert.equal(user.email, "agent@demo.local");
    assert.equal(user.profile, "user");
    assert.equal(user.company.name, "Demo");
    assert.ok(Array.isArray(user.company.settings));
    assert.deepEqual(user.queues.map((q: { name: string }) => q.name), ["Suporte"]);
    assert.equal(user.passwordHash, undefined);

    const wrong = await anon.post("/auth/login", { email: "agent@demo.local", password: "nope" });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.error, "ERR_INVALID_CREDENTIALS");
  });
});

Deno.test("GET /auth/me needs a token; POST /auth/refresh_token uses the cookie", async () => {
  await withServer(async (server) => {
    assert.equal((await server.client().get("/auth/me")).status, 401);
    const agent = await server.login("agent@demo.local");
    const me = await agent.get("/auth/me");
    assert.equal(me.status, 200);
    assert.equal(me.body.email, "agent@demo.local");
    const refreshed = await agent.post("/auth/refresh_token");
    assert.equal(refreshed.status, 200);
    assert.equal(typeof refreshed.body.token, "string");
    const bad = server.client("not-a-token");
    assert.equal((await bad.get("/auth/me")).status, 401);
    await agent.delete("/auth/logout");
    assert.equal((await agent.post("/auth/refresh_token")).status, 401);
  });
});

Deno.test("DELETE /auth/logout revokes the access token at once, not only the refresh cookie", async () => {
  await withServer(async (server) => {
    const first = await server.login("agent@demo.local");
    const second = await server.login("agent@demo.local");
    assert.equal((await first.get("/auth/me")).status, 200);
    assert.equal((await second.delete("/auth/logout")).status, 200);
    const revoked = await first.get("/auth/me");
    assert.equal(revoked.status, 401);
    assert.equal(revoked.body.error, "ERR_SESSION_EXPIRED");
    const again = await server.login("agent@demo.local");
    assert.equal((await again.get("/auth/me")).status, 200);
  });
});
