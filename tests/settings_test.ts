import assert from "node:assert/strict";
import { withServer } from "./helpers/server.ts";
import { SECRET_MASK, SETTING_DEFAULTS, WRITE_ONLY_SETTING_KEYS } from "../domain/settings.ts";
import { platformSettings } from "../actors/platform/lookup.ts";

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
    // Write-only, even for super: the mask says it is set.
    assert.equal((await owner.get("/settings/mpaccesstoken")).body.value, SECRET_MASK);
  });
});

Deno.test("settings: integration credentials are for admins; secrets never reach non-super sessions", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    assert.equal((await admin.put("/settings/apiKeyN8N", { value: "n8n-key" })).status, 200);
    assert.equal((await admin.get("/settings/apiKeyN8N")).body.value, SECRET_MASK);
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
    assert.equal(ownerMe.includes("sk_live_x"), false);
    assert.ok(ownerMe.includes(`"key":"stripeprivatekey","value":"${SECRET_MASK}"`));
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
      { data: { action: "create", setting: { key: "tokenTypebot", value: SECRET_MASK } }, scope: { kind: "admins" } },
      { data: { action: "create", setting: { key: "asaastoken" } }, scope: { kind: "admins" } },
    ]);
  });
});

Deno.test("secrets are write-only: no answer, session or event carries a stored value, yet the server uses it", async () => {
  await withServer(async (server) => {
    const owner = await server.login("super@balcao.local");
    const admin = await server.login("admin@demo.local");
    const seen: string[] = [];
    const off = server.deps.bus.subscribe((e) => seen.push(JSON.stringify(e)));
    const values: Record<string, string> = {};
    for (const key of WRITE_ONLY_SETTING_KEYS) {
      values[key] = `secret-${key}-${crypto.randomUUID()}`;
      const client = key === "tokenTypebot" || key === "apiKeyN8N" ? admin : owner;
      const put = await client.put(`/settings/${key}`, { value: values[key] });
      assert.equal(put.status, 200, key);
      assert.equal(put.body.value, SECRET_MASK, `PUT ${key} answers the mask`);
    }
    off();
    const answers: string[] = [...seen];
    for (const client of [owner, admin]) {
      for (const path of ["/settings/", "/auth/me", `/companies/${server.demo!.companyId}`, `/companies/${server.demo!.platformId}`]) {
        answers.push(JSON.stringify((await client.get(path)).body));
      }
      for (const key of WRITE_ONLY_SETTING_KEYS) answers.push(JSON.stringify((await client.get(`/settings/${key}`)).body));
    }
    for (const [key, value] of Object.entries(values)) {
      assert.equal(answers.some((a) => a.includes(value)), false, `${key} leaked`);
    }
    const list = (await owner.get("/settings/")).body as Array<{ key: string; value: string }>;
    assert.equal(list.find((s) => s.key === "sendgridapi")?.value, SECRET_MASK);
    // The server's own reads still see the stored value.
    assert.equal((await platformSettings(server.deps.system)).sendgridapi, values.sendgridapi);

    // Sending the mask back is refused (it would replace the secret by the mask)…
    const masked = await owner.put("/settings/sendgridapi", { value: SECRET_MASK });
    assert.equal(masked.status, 400);
    assert.equal(masked.body.error, "ERR_VALIDATION");
    assert.equal((await platformSettings(server.deps.system)).sendgridapi, values.sendgridapi);
    // …and an empty value clears it: shown as "" (not set).
    assert.equal((await owner.put("/settings/sendgridapi", { value: "" })).body.value, "");
    assert.equal((await owner.get("/settings/sendgridapi")).body.value, "");
  });
});

Deno.test("PUT /companies/{id}/schedules: HH:MM checked with a clear message, admins of the company only", async () => {
  await withServer(async (server) => {
    const id = server.demo!.companyId;
    const admin = await server.login("admin@demo.local");
    const days = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
      .map((weekdayEn) => ({ weekday: weekdayEn, weekdayEn, startTime: "09:00", endTime: "17:30" }));
    const ok = await admin.put(`/companies/${id}/schedules`, { schedules: days, lunchHour: { startTime: "12:00", endTime: "13:00" } });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.schedules[0].endTime, "17:30");
    assert.deepEqual(ok.body.lunchHour, { startTime: "12:00", endTime: "13:00" });

    const bad = await admin.put(`/companies/${id}/schedules`, {
      schedules: days.map((d, i) => (i === 2 ? { ...d, endTime: "25:00" } : d)),
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.fields["schedules.2.endTime"], "Invalid time: use HH:MM from 00:00 to 23:59");
    const short = await admin.put(`/companies/${id}/schedules`, { schedules: days, lunchHour: { startTime: "12", endTime: "13:00" } });
    assert.equal(short.body.fields["lunchHour.startTime"], "Invalid time: use HH:MM from 00:00 to 23:59");
    const order = await admin.put(`/companies/${id}/schedules`, { schedules: days, lunchHour: { startTime: "14:00", endTime: "13:00" } });
    assert.equal(order.body.fields["lunchHour.endTime"], "The lunch hour must end after it starts");
    const twice = await admin.put(`/companies/${id}/schedules`, { schedules: [days[0], days[0]] });
    assert.equal(twice.status, 400);
    const unknown = await admin.put(`/companies/${id}/schedules`, { schedules: [{ ...days[0], weekdayEn: "someday" }] });
    assert.equal(unknown.status, 400);

    const supervisor = await server.login("supervisor@demo.local");
    assert.equal((await supervisor.put(`/companies/${id}/schedules`, { schedules: days })).status, 403);
    // Another tenant's company is not there for this admin.
    assert.equal((await admin.put(`/companies/${server.demo!.platformId}/schedules`, { schedules: days })).status, 404);
    const stored = (await admin.get(`/companies/${id}`)).body;
    assert.equal(stored.schedules[0].startTime, "09:00");
  });
});

Deno.test("PUT /whatsapp/{id}/keywords: both fields required, a keyword once, admins only, kept by a connection edit", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const conn = (await admin.get("/whatsapp")).body[0];
    // Ids are per company: the admin's call never reaches another company's connection.
    const owner = await server.login("super@balcao.local");
    const theirs = await owner.post("/whatsapp", { name: "Plataforma" });
    await admin.put(`/whatsapp/${theirs.body.id}/keywords`, { keywords: [{ keyword: "intruso", code: "X" }] });
    assert.deepEqual((await owner.get(`/whatsapp/${theirs.body.id}`)).body.keywords, []);
    const rows = [{ keyword: "boleto", code: "FIN-01" }, { keyword: "suporte", code: "SUP-02" }];
    const saved = await admin.put(`/whatsapp/${conn.id}/keywords`, { keywords: rows });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.deepEqual(saved.body.keywords, rows);

    const empty = await admin.put(`/whatsapp/${conn.id}/keywords`, { keywords: [{ keyword: "x", code: "  " }] });
    assert.equal(empty.status, 400);
    assert.equal(empty.body.fields["keywords.0.code"], "Please fill in both fields");
    const twice = await admin.put(`/whatsapp/${conn.id}/keywords`, { keywords: [rows[0], { keyword: "BOLETO", code: "z" }] });
    assert.equal(twice.status, 400);
    assert.equal((await admin.put(`/whatsapp/${conn.id}/keywords`, {})).status, 400);
    assert.equal((await admin.put("/whatsapp/99999/keywords", { keywords: [] })).status, 404);

    const supervisor = await server.login("supervisor@demo.local");
    assert.equal((await supervisor.put(`/whatsapp/${conn.id}/keywords`, { keywords: [] })).status, 403);

    // Editing the connection in its dialog keeps the table.
    const full = (await admin.get(`/whatsapp/${conn.id}`)).body;
    assert.equal((await admin.put(`/whatsapp/${conn.id}`, { ...full, name: "Renomeada" })).status, 200);
    assert.deepEqual((await admin.get(`/whatsapp/${conn.id}`)).body.keywords, rows);
  });
});
