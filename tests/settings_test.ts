import assert from "node:assert/strict";
import { withServer } from "./helpers/server.ts";
import { SETTING_DEFAULTS } from "../domain/settings.ts";

Deno.test("GET /settings/ lists every key with defaults; GET /settings/{key} reads one", async () => {
  await withServer(async (server) => {
    const owner = await server.login("super@balcao.local");
    const all = await owner.get("/settings/");
    assert.equal(all.status, 200);
    assert.equal(all.body.length, Object.keys(SETTING_DEFAULTS).length);
    assert.deepEqual(all.body.find((s: { key: string }) => s.key === "trial"), { key: "trial", value: "3" });
    assert.equal((await owner.get("/settings")).status, 200);

    const agent = await server.login("agent@demo.local");
    const one = await agent.get("/settings/scheduleType");
    assert.deepEqual(one.body, { key: "scheduleType", value: "disabled" });
    const none = await agent.get("/settings/noSuchKey");
    assert.equal(none.status, 404);
    assert.equal(none.body.error, "ERR_NO_SETTING_FOUND");
  });
});

Deno.test("PUT /settings/{key} is for admins, publishes company-{id}-settings, validates values", async () => {
  await withServer(async (server) => {
    const companyId = server.demo!.companyId;
    const agent = await server.login("agent@demo.local");
    const denied = await agent.put("/settings/userRating", { value: "enabled" });
    assert.equal(denied.status, 403);
    assert.equal(denied.body.error, "ERR_NO_PERMISSION");

    const admin = await server.login("admin@demo.local");
    const events: Array<{ channel: string; data: unknown }> = [];
    const off = server.deps.bus.subscribe((e) => events.push(e));
    const saved = await admin.put("/settings/userRating", { key: "userRating", value: "enabled" });
    off();
    assert.equal(saved.status, 200);
    assert.equal(saved.body.key, "userRating");
    assert.equal(saved.body.value, "enabled");
    assert.deepEqual(events.map((e) => [e.channel, e.data]), [[
      `company-${companyId}-settings`,
      { action: "create", setting: { key: "userRating", value: "enabled" } },
    ]]);
    assert.equal((await agent.get("/settings/userRating")).body.value, "enabled");
    assert.equal((await admin.put("/settings/userRating", { value: "disabled" })).body.value, "disabled");

    const bad = await admin.put("/settings/scheduleType", { value: "weekly" });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error, "ERR_VALIDATION");
    assert.equal((await admin.put("/settings/noSuchKey", { value: "x" })).status, 404);
    assert.equal((await admin.put("/settings/userRating", {})).status, 400);
  });
});

Deno.test("global settings: only super writes them, everyone reads the platform's, secrets stay hidden", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const owner = await server.login("super@balcao.local");
    const denied = await admin.put("/settings/allowregister", { value: "enabled" });
    assert.equal(denied.status, 403);
    assert.equal((await admin.put("/settings/trial", { value: "5" })).status, 403);

    assert.equal((await owner.put("/settings/trial", { value: "5" })).status, 200);
    assert.equal((await owner.put("/settings/trial", { value: "9" })).status, 400);
    assert.equal((await owner.put("/settings/mpaccesstoken", { value: "APP-secret" })).status, 200);
    // The demo company sees the platform's global values…
    assert.equal((await admin.get("/settings/trial")).body.value, "5");
    // …but never the platform's credentials.
    const secret = await admin.get("/settings/mpaccesstoken");
    assert.equal(secret.status, 403);
    const list = (await admin.get("/settings/")).body as Array<{ key: string; value: string }>;
    assert.equal(list.find((s) => s.key === "mpaccesstoken"), undefined);
    assert.equal(list.some((s) => s.value === "APP-secret"), false);
    assert.equal((await owner.get("/settings/mpaccesstoken")).body.value, "APP-secret");
  });
});

Deno.test("settings: integration credentials are for admins; secrets never reach non-super sessions", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    assert.equal((await admin.put("/settings/apiKeyN8N", { value: "n8n-key" })).status, 200);
    assert.equal((await admin.get("/settings/apiKeyN8N")).body.value, "n8n-key");
    const agent = await server.login("agent@demo.local");
    assert.equal((await agent.get("/settings/apiKeyN8N")).status, 403);
    const agentList = (await agent.get("/settings/")).body as Array<{ key: string }>;
    assert.equal(agentList.some((s) => s.key === "apiKeyN8N"), false);

    const owner = await server.login("super@balcao.local");
    await owner.put("/settings/stripeprivatekey", { value: "sk_live_x" });
    await owner.post("/users", { name: "Equipe", email: "equipe@balcao.local", password: "12345", profile: "admin" });
    const staff = await server.login("equipe@balcao.local", "12345");
    for (const path of ["/auth/me", `/companies/${server.demo!.platformId}`]) {
      const body = JSON.stringify((await staff.get(path)).body);
      assert.equal(body.includes("sk_live_x"), false, path);
      assert.equal(body.includes("stripeprivatekey"), false, path);
    }
    const ownerMe = JSON.stringify((await owner.get("/auth/me")).body);
    assert.ok(ownerMe.includes("sk_live_x"));
  });
});

Deno.test("company-{id}-settings events keep credentials to admins and platform secrets valueless", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const owner = await server.login("super@balcao.local");
    const events: Array<{ data: unknown; scope: unknown }> = [];
    const off = server.deps.bus.subscribe((e) => {
      if (e.channel.endsWith("-settings")) events.push({ data: e.data, scope: e.scope });
    });
    await admin.put("/settings/viewclosed", { value: "enabled" });
    await admin.put("/settings/tokenTypebot", { value: "tb-token" });
    await owner.put("/settings/asaastoken", { value: "asaas-secret" });
    off();
    assert.deepEqual(events, [
      { data: { action: "create", setting: { key: "viewclosed", value: "enabled" } }, scope: { kind: "company" } },
      { data: { action: "create", setting: { key: "tokenTypebot", value: "tb-token" } }, scope: { kind: "admins" } },
      { data: { action: "create", setting: { key: "asaastoken" } }, scope: { kind: "admins" } },
    ]);
  });
});
