import assert from "node:assert/strict";
import { withServer } from "./helpers/server.ts";
import { createTenant } from "./helpers/tenants.ts";

const DAY = 86_400_000;

Deno.test("GET /companies, /companies/list and /companies/{id} for the super user", async () => {
  await withServer(async (server) => {
    const owner = await server.login("super@balcao.local");
    for (const path of ["/companies", "/companies/"]) {
      const paged = await owner.get(path);
      assert.equal(paged.status, 200, path);
      assert.equal(paged.body.count, 2);
      assert.equal(paged.body.hasMore, false);
      assert.deepEqual(paged.body.companies.map((c: { name: string }) => c.name), ["Balcão", "Demo"]);
      assert.equal(paged.body.companies[1].plan.name, "Completo");
    }
    assert.equal((await owner.get("/companies?searchParam=dem")).body.count, 1);
    const list = await owner.get("/companies/list");
    assert.equal(list.body.length, 2);
    const demo = await owner.get(`/companies/${server.demo!.companyId}`);
    assert.equal(demo.status, 200);
    assert.equal(demo.body.name, "Demo");
    assert.equal(typeof demo.body.dueDate, "string");
    assert.ok(demo.body.settings.some((s: { key: string }) => s.key === "campaignsEnabled"));
    const none = await owner.get("/companies/999");
    assert.equal(none.status, 404);
    assert.equal(none.body.error, "ERR_NO_COMPANY_FOUND");
  });
});

Deno.test("companies: an admin reads its own company and plan, nothing else", async () => {
  await withServer(async (server) => {
    const id = server.demo!.companyId;
    const admin = await server.login("admin@demo.local");
    assert.equal((await admin.get(`/companies/${id}`)).status, 200);
    const plan = await admin.get(`/companies/listPlan/${id}`);
    assert.equal(plan.status, 200);
    assert.equal(plan.body.plan.useCampaigns, true);
    const agent = await server.login("agent@demo.local");
    assert.equal((await agent.get(`/companies/listPlan/${id}`)).status, 200);
    assert.equal((await agent.get(`/companies/${id}`)).status, 403);
    for (const path of ["/companies", "/companies/list"]) {
      const r = await admin.get(path);
      assert.equal(r.status, 403, path);
      assert.equal(r.body.error, "ERR_NO_PERMISSION");
    }
    assert.equal((await admin.post("/companies", { name: "Nova", email: "n@n.co" })).status, 403);
    assert.equal((await admin.put(`/companies/${id}`, { name: "Demo2", email: "x@y.co" })).status, 403);
    assert.equal((await admin.delete(`/companies/${id}`)).status, 403);
  });
});

Deno.test("POST/PUT/DELETE /companies: create, unique name, update, delete with its users", async () => {
  await withServer(async (server) => {
    const owner = await server.login("super@balcao.local");
    const bad = await owner.post("/companies", { name: "N" });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.fields.email, "Required");
    const due = new Date(Date.now() + 30 * DAY).toISOString();
    const created = await owner.post("/companies", {
      name: "Padaria",
      email: "contato@padaria.local",
      phone: "5511988887777",
      planId: server.demo!.planId,
      dueDate: due,
      recurrence: "MENSAL",
      status: "t",
      campaignsEnabled: false,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.id;
    assert.equal(created.body.plan.name, "Completo");
    assert.equal(created.body.dueDate, due);
    assert.deepEqual(
      created.body.settings.find((s: { key: string }) => s.key === "campaignsEnabled"),
      { key: "campaignsEnabled", value: "false" },
    );
    const dup = await owner.post("/companies", { name: "padaria", email: "x@y.co" });
    assert.equal(dup.status, 409);
    assert.equal((await owner.post("/companies", { name: "Sem Plano", email: "x@y.co", planId: 999 })).status, 404);

    const updated = await owner.put(`/companies/${id}`, {
      name: "Padaria Central",
      email: "contato@padaria.local",
      dueDate: "",
      status: false,
    });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.name, "Padaria Central");
    assert.equal(updated.body.dueDate, null);
    assert.equal(updated.body.status, false);
    assert.equal(updated.body.planId, server.demo!.planId);
    assert.equal((await owner.put(`/companies/${id}`, { name: "Demo", email: "a@b.co" })).status, 409);
    assert.equal((await owner.put("/companies/999", { name: "Nada", email: "a@b.co" })).status, 404);

    const user = await owner.post("/users", {
      name: "Padeiro",
      email: "padeiro@padaria.local",
      password: "12345",
      profile: "admin",
      companyId: id,
    });
    assert.equal(user.status, 201);
    assert.equal(user.body.companyId, id);
    assert.equal((await owner.delete(`/companies/${id}`)).status, 200);
    assert.equal((await owner.get(`/companies/${id}`)).status, 404);
    const leftSettings = await Array.fromAsync(server.deps.kv.list({ prefix: ["setting", id] }));
    assert.deepEqual(leftSettings, []);
    const login = await server.client().post("/auth/login", { email: "padeiro@padaria.local", password: "12345" });
    assert.equal(login.status, 401);
    const platform = server.demo!.platformId;
    assert.equal((await owner.delete(`/companies/${platform}`)).status, 403);
  });
});

Deno.test("PUT /companies/{id}/schedules saves the company's opening hours (admin of it)", async () => {
  await withServer(async (server) => {
    const id = server.demo!.companyId;
    const admin = await server.login("admin@demo.local");
    const schedules = [
      { weekday: "Segunda-feira", weekdayEn: "monday", startTime: "09:00", endTime: "17:00" },
    ];
    const saved = await admin.put(`/companies/${id}/schedules`, { id, schedules });
    assert.equal(saved.status, 200);
    assert.deepEqual(saved.body.schedules, schedules);
    const bad = await admin.put(`/companies/${id}/schedules`, {
      id,
      schedules: [{ ...schedules[0], startTime: "25:00" }],
    });
    assert.equal(bad.status, 400);
    const agent = await server.login("agent@demo.local");
    assert.equal((await agent.put(`/companies/${id}/schedules`, { id, schedules })).status, 403);
  });
});

Deno.test("POST /companies/internal signs up a company and its admin with the trial setting", async () => {
  await withServer(async (server) => {
    const owner = await server.login("super@balcao.local");
    assert.equal((await owner.put("/settings/trial", { value: "7" })).status, 200);
    const bad = await owner.post("/companies/internal", { name: "X", phone: "123" });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.fields.name, "Too Short!");
    assert.equal(bad.body.fields.phone, "Too Short!");
    assert.equal(bad.body.fields.namecomplete, "Required");
    const before = Date.now();
    const tenant = await createTenant(server, "Oficina");
    const company = (await owner.get(`/companies/${tenant.companyId}`)).body;
    assert.equal(company.recurrence, "MENSAL");
    assert.equal(company.status, true);
    const due = Date.parse(company.dueDate);
    assert.ok(due >= before + 7 * DAY && due <= Date.now() + 7 * DAY, company.dueDate);
    const me = (await tenant.admin.get("/auth/me")).body;
    assert.equal(me.profile, "admin");
    assert.equal(me.name, "Admin Oficina");
    assert.equal(me.companyId, tenant.companyId);
    const admin = await server.login("admin@demo.local");
    assert.equal((await admin.post("/companies/internal", {})).status, 403);
    const dup = await owner.post("/companies/internal", {
      namecomplete: "Outro",
      name: "Outra Oficina",
      email: tenant.email,
      password: "12345",
      phone: "5511999990000",
      pais: "BR",
      planId: server.demo!.planId,
    });
    assert.equal(dup.status, 409);
    assert.equal((await owner.get("/companies/list")).body.length, 3);
  });
});

Deno.test("companies: every super-only endpoint refuses admin, supervisor and agent; another tenant is 404", async () => {
  await withServer(async (server) => {
    const demo = server.demo!.companyId;
    const other = await createTenant(server, "Vizinha");
    const body = { name: "Qualquer", email: "q@q.co" };
    const signup = { namecomplete: "Ana", name: "Nova", email: "ana@nova.local", password: "12345", phone: "5511999990000", planId: server.demo!.planId };
    for (const email of ["admin@demo.local", "supervisor@demo.local", "agent@demo.local"]) {
      const user = await server.login(email);
      const calls: [string, Promise<{ status: number; body: { error?: string } }>][] = [
        ["GET /companies/", user.get("/companies/")],
        ["GET /companies/list", user.get("/companies/list")],
        ["POST /companies", user.post("/companies", body)],
        ["POST /companies/internal", user.post("/companies/internal", signup)],
        ["PUT /companies/{own}", user.put(`/companies/${demo}`, body)],
        ["PUT /companies/{other}", user.put(`/companies/${other.companyId}`, body)],
        ["DELETE /companies/{other}", user.delete(`/companies/${other.companyId}`)],
      ];
      for (const [what, call] of calls) {
        const r = await call;
        assert.equal(r.status, 403, `${email} ${what}`);
        assert.equal(r.body.error, "ERR_NO_PERMISSION", `${email} ${what}`);
      }
    }
    // A company admin reads its own company, never another's (not even that it exists).
    const admin = await server.login("admin@demo.local");
    for (const path of [`/companies/${other.companyId}`, `/companies/listPlan/${other.companyId}`]) {
      const r = await admin.get(path);
      assert.equal(r.status, 404, path);
      assert.equal(r.body.error, "ERR_NO_COMPANY_FOUND");
      assert.doesNotMatch(JSON.stringify(r.body), /Vizinha/);
    }
    assert.equal((await admin.put(`/companies/${other.companyId}/schedules`, { schedules: [] })).status, 404);
    assert.equal((await other.admin.get(`/companies/${demo}`)).status, 404);
    assert.equal((await server.client().get("/companies/list")).status, 401);
    assert.equal((await server.client().post("/companies/internal", signup)).status, 401);
    const owner = await server.login("super@balcao.local");
    assert.equal((await owner.get("/companies/list")).body.length, 3, "nothing was created or deleted");
  });
});

Deno.test("POST /companies/internal: the sign-up's validation texts (001 §5) and a taken company name", async () => {
  await withServer(async (server) => {
    const owner = await server.login("super@balcao.local");
    const empty = await owner.post("/companies/internal", {});
    assert.equal(empty.status, 400);
    assert.equal(empty.body.error, "ERR_VALIDATION");
    assert.deepEqual(empty.body.fields, {
      namecomplete: "Required",
      name: "Required",
      email: "Required",
      password: "Required",
      phone: "Required",
      planId: "Required",
    });
    const long = "x".repeat(51);
    const bad = await owner.post("/companies/internal", {
      namecomplete: "A",
      name: long,
      email: "nao-e-email",
      password: "1234",
      phone: "1234567",
      pais: "",
      planId: "",
    });
    assert.deepEqual(bad.body.fields, {
      namecomplete: "Too Short!",
      name: "Too Long!",
      email: "Invalid email",
      password: "Too Short!",
      phone: "Too Short!",
      pais: "Required",
      planId: "Required",
    });
    const tooLong = await owner.post("/companies/internal", { namecomplete: long, name: "Ok", email: "a@b.co", password: long, phone: long, pais: long, planId: server.demo!.planId });
    assert.deepEqual(tooLong.body.fields, { namecomplete: "Too Long!", password: "Too Long!", phone: "Too Long!", pais: "Too Long!" });

    const taken = await owner.post("/companies/internal", {
      namecomplete: "Outro Dono",
      name: "demo",
      email: "dono@outra.local",
      password: "12345",
      phone: "5511999990000",
      pais: "AR",
      planId: server.demo!.planId,
    });
    assert.equal(taken.status, 409);
    assert.equal(taken.body.error, "ERR_CONFLICT");
    assert.match(taken.body.message, /already exists/);
    assert.match(taken.body.fields.name, /já existe uma empresa com o mesmo nome/);
    // The refused sign-up left no admin behind.
    assert.equal((await server.client().post("/auth/login", { email: "dono@outra.local", password: "12345" })).status, 401);
    assert.equal((await owner.get("/companies/list")).body.length, 2);
  });
});

Deno.test("PUT /companies/{id}: billing and address fields are saved and returned; absent ones are kept", async () => {
  await withServer(async (server) => {
    const owner = await server.login("super@balcao.local");
    const id = server.demo!.companyId;
    const address = {
      billingName: "Demo Comércio Ltda",
      addressZipCode: "01001-000",
      addressStreet: "Praça da Sé, 1",
      addressDistrict: "Sé",
      addressCity: "São Paulo",
      addressState: "SP",
    };
    const saved = await owner.put(`/companies/${id}`, { name: "Demo", email: "demo@demo.local", ...address });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    for (const [key, value] of Object.entries(address)) assert.equal(saved.body[key], value, key);
    const again = await owner.put(`/companies/${id}`, { name: "Demo", email: "demo@demo.local", addressCity: "Campinas" });
    assert.equal(again.body.addressCity, "Campinas");
    assert.equal(again.body.billingName, "Demo Comércio Ltda");
    const tooLong = await owner.put(`/companies/${id}`, { name: "Demo", email: "demo@demo.local", billingName: "x".repeat(101) });
    assert.equal(tooLong.status, 400);
    assert.equal(tooLong.body.fields.billingName, "Too Long!");
  });
});
