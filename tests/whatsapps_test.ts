/** Connections API: fields, one default per company, greeting rule, plan limit, permissions. */
import assert from "node:assert/strict";
import { withServer } from "./helpers/server.ts";
import { demoConnection } from "./helpers/channels.ts";
import { createTenant } from "./helpers/tenants.ts";
import { companies, PLATFORM } from "../actors/platform/collections.ts";
import { createPlan } from "../actors/platform/commands.ts";

Deno.test("GET /whatsapp lists connections with their queues; ?session=0 hides QR codes", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const list = await admin.get("/whatsapp");
    assert.equal(list.status, 200);
    const demo = list.body[0];
    assert.equal(demo.name, "WhatsApp Demo");
    assert.equal(demo.isDefault, true);
    assert.deepEqual(demo.queues.map((q: { name: string }) => q.name), ["Suporte", "Vendas"]);
    assert.ok(demo.queues[0].color);
    const created = await admin.post("/whatsapp", { name: "Nova" });
    assert.match(created.body.qrcode, /balcao-simulator/);
    const hidden = await admin.get("/whatsapp?session=0");
    assert.equal(hidden.body.find((w: { id: number }) => w.id === created.body.id).qrcode, "");
    const agent = await server.login("agent@demo.local");
    assert.equal((await agent.get("/whatsapp")).status, 200);
    const seen = (await agent.get(`/whatsapp/${demo.id}`)).body;
    assert.equal(seen.name, "WhatsApp Demo");
    assert.equal(seen.token, "", "an agent does not see the connection's API token");
    assert.match(demo.token, /^[0-9a-f]{32}$/);
    assert.equal((await admin.get("/whatsapp/9999")).body.error, "ERR_NO_WAPP_FOUND");
  });
});

Deno.test("POST /whatsapp stores every field, generates a token and validates intervals", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const [support] = server.demo!.queueIds;
    const body = {
      name: "Filial",
      greetingMessage: "Oi",
      complationMessage: "Tchau",
      outOfHoursMessage: "Fechado",
      ratingMessage: "Avalie",
      closeMessage: "Encerrado por inatividade",
      token: "",
      webhook: "http://127.0.0.1:9/hook",
      ignoreNumbers: "5511999990000",
      queueIds: [support],
      selectedMoveQueueId: support,
      selectedInterval: 10,
      inatividade: 30,
      queues: [{ id: 1 }],
      status: "CONNECTED",
    };
    const r = await admin.post("/whatsapp", body);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    for (const key of ["greetingMessage", "complationMessage", "outOfHoursMessage", "ratingMessage", "closeMessage", "webhook", "ignoreNumbers", "selectedInterval", "inatividade", "selectedMoveQueueId"] as const) {
      assert.deepEqual(r.body[key], body[key], key);
    }
    assert.match(r.body.token, /^[0-9a-f]{32}$/);
    assert.equal(r.body.provider, "simulator");
    assert.notEqual(r.body.status, "CONNECTED", "session fields in the body are ignored");
    assert.equal(r.body.isDefault, false);
    const bad = await admin.post("/whatsapp", { name: "X1", selectedInterval: 7 });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error, "ERR_VALIDATION");
    const noQueue = await admin.post("/whatsapp", { name: "X2", queueIds: [999] });
    assert.equal(noQueue.status, 404);
    const put = await admin.put(`/whatsapp/${r.body.id}`, { ...body, name: "Filial 2", token: "meu-token" });
    assert.equal(put.body.name, "Filial 2");
    assert.equal(put.body.token, "meu-token");
  });
});

Deno.test("PUT /whatsapp/{id}: making one default unsets the others; unsetting the only default is refused", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const demo = await demoConnection(admin);
    const second = (await admin.post("/whatsapp", { name: "Segunda" })).body;
    const made = await admin.put(`/whatsapp/${second.id}`, { name: "Segunda", isDefault: true });
    assert.equal(made.body.isDefault, true);
    const list = (await admin.get("/whatsapp")).body;
    assert.deepEqual(list.filter((w: { isDefault: boolean }) => w.isDefault).map((w: { id: number }) => w.id), [second.id]);
    const refused = await admin.put(`/whatsapp/${second.id}`, { name: "Segunda", isDefault: false });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error, "ERR_NO_OTHER_WHATSAPP");
    const back = await admin.put(`/whatsapp/${demo.id}`, { name: "WhatsApp Demo", isDefault: true, queueIds: demo.queueIds, greetingMessage: "Olá" });
    assert.equal(back.body.isDefault, true);
  });
});

Deno.test("POST /whatsapp requires a greeting with more than one queue", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const r = await admin.post("/whatsapp", { name: "Duas filas", queueIds: server.demo!.queueIds });
    assert.equal(r.status, 400);
    assert.equal(r.body.error, "ERR_WAPP_GREETING_REQUIRED");
    const ok = await admin.post("/whatsapp", { name: "Duas filas", queueIds: server.demo!.queueIds, greetingMessage: "Escolha" });
    assert.equal(ok.status, 200);
  });
});

Deno.test("POST /whatsapp enforces the plan's connections limit and the permission", async () => {
  await withServer(async (server) => {
    const { system } = server.deps;
    const plan = await createPlan(system, {
      name: "Mini",
      users: 10,
      connections: 2,
      queues: 5,
      value: 1,
      useWhatsapp: true,
      useFacebook: null,
      useInstagram: null,
      useCampaigns: null,
      useSchedules: null,
      useInternalChat: null,
      useExternalApi: null,
      useKanban: null,
      useInternal: null,
      useAI: null,
    });
    const demo = await companies.in(system, PLATFORM).get(server.demo!.companyId);
    await companies.in(system, PLATFORM).update(demo!.id, (old) => ({ ...old, planId: plan.id }), () => new Error("missing"));
    const admin = await server.login("admin@demo.local");
    assert.equal((await admin.post("/whatsapp", { name: "Segunda" })).status, 200);
    const over = await admin.post("/whatsapp", { name: "Terceira" });
    assert.equal(over.status, 403);
    assert.equal(over.body.error, "ERR_PLAN_LIMIT");
    const agent = await server.login("agent@demo.local");
    assert.equal((await agent.post("/whatsapp", { name: "Agente" })).status, 403);
  });
});

Deno.test("DELETE /whatsapp/{id} is for super only and passes the default on", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const demo = await demoConnection(admin);
    const second = (await admin.post("/whatsapp", { name: "Segunda" })).body;
    assert.equal((await admin.delete(`/whatsapp/${demo.id}`)).status, 403);
    const owner = await server.login("super@balcao.local");
    const r = await owner.delete(`/whatsapp/${demo.id}?companyId=${server.demo!.companyId}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const list = (await admin.get("/whatsapp")).body;
    assert.deepEqual(list.map((w: { id: number; isDefault: boolean }) => [w.id, w.isDefault]), [[second.id, true]]);
  });
});

Deno.test("defaultWhatsapp() finds the default connection and reports ERR_NO_DEF_WAPP_FOUND without one", async () => {
  await withServer(async (server) => {
    const { defaultWhatsapp } = await import("../actors/whatsapps/mod.ts");
    const found = await defaultWhatsapp(server.deps.system, server.demo!.companyId);
    assert.equal(found.name, "WhatsApp Demo");
    await assert.rejects(defaultWhatsapp(server.deps.system, server.demo!.platformId), /no default connection/);
  });
});

Deno.test("POST and PUT /whatsapp refuse a provider the server has no adapter for", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    for (const provider of ["beta", "telegram"]) {
      const r = await admin.post("/whatsapp", { name: "Outra", provider });
      assert.equal(r.status, 400, provider);
      assert.equal(r.body.error, "ERR_VALIDATION");
      assert.equal(r.body.fields.provider, "Invalid provider");
    }
    const created = await admin.post("/whatsapp", { name: "Simulada", provider: "simulator" });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.equal(created.body.provider, "simulator");
    const put = await admin.put(`/whatsapp/${created.body.id}`, { name: "Simulada", provider: "beta" });
    assert.equal(put.body.fields.provider, "Invalid provider");
    assert.equal((await admin.get(`/whatsapp/${created.body.id}`)).body.provider, "simulator");
  });
});

Deno.test("GET, PUT /whatsapp/{id} and GET /whatsapp keep another company's connections out of reach", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const demo = await demoConnection(admin);
    const other = await createTenant(server, "Outra Loja");
    assert.equal((await other.admin.get(`/whatsapp/${demo.id}`)).status, 404);
    const put = await other.admin.put(`/whatsapp/${demo.id}`, { name: "Tomada" });
    assert.equal(put.status, 404);
    assert.equal(put.body.error, "ERR_NO_WAPP_FOUND");
    const own = await other.admin.get(`/whatsapp?companyId=${server.demo!.companyId}`);
    assert.ok(own.body.every((w: { companyId: number }) => w.companyId === other.companyId), "companyId is for super only");
    assert.equal((await admin.get(`/whatsapp/${demo.id}`)).body.name, "WhatsApp Demo");
  });
});
