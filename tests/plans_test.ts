import assert from "node:assert/strict";
import { withServer } from "./helpers/server.ts";
import { flagChoice, flagFromChoice, PLAN_FLAGS, planAllows } from "../domain/plan.ts";

Deno.test("GET /plans/list and /plans/register need no login; /plans/all does", async () => {
  await withServer(async (server) => {
    const anon = server.client();
    for (const path of ["/plans/list", "/plans/register"]) {
      const r = await anon.get(path);
      assert.equal(r.status, 200, path);
      assert.deepEqual(r.body.map((p: { name: string }) => p.name), ["Completo"]);
    }
    assert.equal((await anon.get("/plans/all")).status, 401);
    const agent = await server.login("agent@demo.local");
    assert.equal((await agent.get("/plans/all")).body.length, 1);
    const one = await agent.get(`/plans/${server.demo!.planId}`);
    assert.equal(one.status, 200);
    assert.equal(one.body.users, 50);
    const none = await agent.get("/plans/999");
    assert.equal(none.status, 404);
    assert.equal(none.body.error, "ERR_NO_PLAN_FOUND");
  });
});

Deno.test("POST/PUT/DELETE /plans are for super users, store flags as sent", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    assert.equal((await admin.post("/plans", { name: "Básico" })).status, 403);
    const owner = await server.login("super@balcao.local");
    const bad = await owner.post("/plans", { name: "B" });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.fields.name, "Too Short!");
    const created = await owner.post("/plans", {
      name: "Básico",
      users: 3,
      connections: 1,
      queues: 2,
      value: 49.9,
      useCampaigns: false,
      useInternal: true,
    });
    assert.equal(created.status, 201);
    assert.equal(created.body.useCampaigns, false);
    assert.equal(created.body.useInternal, true);
    assert.equal(created.body.useKanban, null);
    const id = created.body.id;
    assert.equal((await admin.put(`/plans/${id}`, { name: "Hack" })).status, 403);
    const updated = await owner.put(`/plans/${id}`, { value: 59.9, useInternal: false });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.value, 59.9);
    assert.equal(updated.body.users, 3);
    assert.equal(updated.body.name, "Básico");
    assert.equal(updated.body.useInternal, false);
    assert.equal((await owner.put("/plans/999", { value: 1 })).status, 404);

    const paged = await owner.get("/plans?searchParam=bás");
    assert.deepEqual(paged.body.plans.map((p: { id: number }) => p.id), [id]);
    assert.equal(paged.body.count, 1);

    assert.equal((await admin.delete(`/plans/${id}`)).status, 403);
    assert.equal((await owner.delete(`/plans/${id}`)).status, 200);
    const gone = await owner.get(`/plans/${id}`);
    assert.equal(gone.status, 404);
    assert.equal((await owner.delete(`/plans/${id}`)).status, 404);
  });
});

Deno.test("DELETE /plans/{id} refuses a plan that a company uses (409)", async () => {
  await withServer(async (server) => {
    const owner = await server.login("super@balcao.local");
    const r = await owner.delete(`/plans/${server.demo!.planId}`);
    assert.equal(r.status, 409);
    assert.equal(r.body.error, "ERR_CONFLICT");
    assert.equal((await owner.get(`/plans/${server.demo!.planId}`)).status, 200);
  });
});

Deno.test("plan names are unique, case-insensitively: POST and PUT of a taken name are 409 with the spec's wording on the name", async () => {
  await withServer(async (server) => {
    const owner = await server.login("super@balcao.local");
    const dup = await owner.post("/plans", { name: "  completo " });
    assert.equal(dup.status, 409);
    assert.equal(dup.body.error, "ERR_CONFLICT");
    assert.match(dup.body.message, /A plan named completo already exists/);
    assert.equal(
      dup.body.fields.name,
      "Não foi possível realizar a operação. Verifique se já existe uma plano com o mesmo nome ou se os campos foram preenchidos corretamente",
    );
    const other = await owner.post("/plans", { name: " Básico " });
    assert.equal(other.status, 201);
    assert.equal(other.body.name, "Básico", "outer spaces are not part of the name");
    assert.equal((await owner.put(`/plans/${other.body.id}`, { name: "COMPLETO" })).status, 409);
    const same = await owner.put(`/plans/${other.body.id}`, { name: "básico", users: 4 });
    assert.equal(same.status, 200, "a plan may keep (or re-case) its own name");
    assert.equal(same.body.name, "básico");
    assert.deepEqual((await owner.get("/plans/all")).body.map((p: { name: string }) => p.name), ["Completo", "básico"]);
  });
});

Deno.test("plan flags: absent is stored null; the session carries them; on unless false, useInternal only when true", async () => {
  await withServer(async (server) => {
    const owner = await server.login("super@balcao.local");
    const bare = await owner.post("/plans", { name: "Sem flags" });
    for (const flag of PLAN_FLAGS) assert.equal(bare.body[flag], null, flag);
    const bad = await owner.post("/plans", { name: "Errado", useKanban: "sim", users: -1 });
    assert.equal(bad.status, 400);
    assert.ok(bad.body.fields.useKanban, "a flag is a boolean or null");
    assert.ok(bad.body.fields.users);

    // The demo company's plan, as its users' session reads it after each change.
    const planId = server.demo!.planId;
    const agent = await server.login("agent@demo.local");
    const planOf = async () => (await agent.get("/auth/me")).body.company.plan;
    // What the plans form sends for 'Sim' on every select: true, except useInternal's false.
    const sim = Object.fromEntries(PLAN_FLAGS.map((f) => [f, flagFromChoice(f, true)]));
    assert.equal((await owner.put(`/plans/${planId}`, sim)).status, 200);
    let plan = await planOf();
    assert.equal(plan.useInternal, false, "'Sim' on useInternal is stored false");
    for (const flag of PLAN_FLAGS) assert.equal(planAllows(plan, flag), flag !== "useInternal", flag);
    for (const flag of PLAN_FLAGS) assert.equal(flagChoice(flag, plan[flag]), true, `${flag} reads back as 'Sim'`);

    const cleared = Object.fromEntries(PLAN_FLAGS.map((f) => [f, null]));
    assert.equal((await owner.put(`/plans/${planId}`, cleared)).status, 200);
    plan = await planOf();
    for (const flag of PLAN_FLAGS) {
      assert.equal(plan[flag], null, flag);
      assert.equal(planAllows(plan, flag), flag !== "useInternal", `${flag}: null is on, except useInternal`);
    }
    assert.equal((await owner.put(`/plans/${planId}`, { useKanban: false, useInternal: true })).status, 200);
    plan = await planOf();
    assert.equal(planAllows(plan, "useKanban"), false);
    assert.equal(planAllows(plan, "useInternal"), true);
    assert.equal(plan.useAI, null, "a PUT changes only the flags it sends");
  });
});
