import assert from "node:assert/strict";
import { withServer } from "./helpers/server.ts";

const form = (planId: number, n = "") => ({
  namecomplete: "Maria Souza",
  name: `Floricultura${n}`,
  email: `maria${n}@flores.local`,
  password: "segredo1",
  phone: "5511977776666",
  pais: "BR",
  planId,
});

Deno.test("POST /companies/cadastro is refused (403) unless allowregister is enabled", async () => {
  await withServer(async (server) => {
    const anon = server.client();
    const refused = await anon.post("/companies/cadastro", form(server.demo!.planId));
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error, "ERR_USER_CREATION_DISABLED");
    const owner = await server.login("super@balcao.local");
    assert.equal((await owner.get("/companies/list")).body.length, 2);
  });
});

Deno.test("POST /companies/cadastro creates company and admin on the chosen plan with the trial", async () => {
  await withServer(async (server) => {
    const owner = await server.login("super@balcao.local");
    assert.equal((await owner.put("/settings/allowregister", { value: "enabled" })).status, 200);
    assert.equal((await owner.put("/settings/trial", { value: "2" })).status, 200);
    const anon = server.client();
    const bad = await anon.post("/companies/cadastro", { ...form(server.demo!.planId), email: "x" });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.fields.email, "Invalid email");
    const noPlan = await anon.post("/companies/cadastro", form(999));
    assert.equal(noPlan.status, 404);
    assert.equal(noPlan.body.error, "ERR_NO_PLAN_FOUND");

    const before = Date.now();
    const created = await anon.post("/companies/cadastro", form(server.demo!.planId));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.company.name, "Floricultura");
    assert.equal(created.body.company.planId, server.demo!.planId);
    assert.equal(created.body.user.profile, "admin");
    assert.equal(created.body.user.passwordHash, undefined);
    const due = Date.parse(created.body.company.dueDate);
    assert.ok(due >= before + 2 * 86_400_000 && due <= Date.now() + 2 * 86_400_000);

    const maria = await server.login("maria@flores.local", "segredo1");
    const users = await maria.get("/users/");
    assert.deepEqual(users.body.users.map((u: { email: string }) => u.email), ["maria@flores.local"]);

    const again = await anon.post("/companies/cadastro", { ...form(server.demo!.planId), name: "Outra" });
    assert.equal(again.status, 409);
    assert.equal(again.body.error, "ERR_DUPLICATED_EMAIL");
    // A taken e-mail leaves no company behind.
    assert.equal((await owner.get("/companies/list")).body.length, 3);
  });
});

Deno.test("POST /companies/cadastro is limited per address", async () => {
  await withServer(async (server) => {
    const owner = await server.login("super@balcao.local");
    await owner.put("/settings/allowregister", { value: "enabled" });
    const anon = server.client();
    let last = 0;
    for (let i = 0; i < 11; i++) {
      last = (await anon.post("/companies/cadastro", { ...form(server.demo!.planId, String(i)), phone: "1" })).status;
      if (i < 10) assert.equal(last, 400);
    }
    assert.equal(last, 429);
  });
});

Deno.test("concurrent sign-ups with one e-mail create one company and one user", async () => {
  await withServer(async (server) => {
    const owner = await server.login("super@balcao.local");
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((n) =>
        owner.post("/companies/internal", { ...form(server.demo!.planId), name: `Concorrente ${n}` })
      ),
    );
    assert.deepEqual(results.map((r) => r.status).sort(), [201, 409, 409, 409, 409]);
    assert.equal((await owner.get("/companies/list")).body.length, 3);
    const winner = results.find((r) => r.status === 201)!.body;
    const users = await owner.get(`/users/list?companyId=${winner.company.id}`);
    assert.deepEqual(users.body.map((u: { email: string }) => u.email), ["maria@flores.local"]);
  });
});

Deno.test("GET /companies/cadastro tells the page whether sign-up is open and linked, and the trial length", async () => {
  await withServer(async (server) => {
    const anon = server.client();
    assert.deepEqual((await anon.get("/companies/cadastro")).body, { open: false, linked: false, trialDays: 3 });
    const owner = await server.login("super@balcao.local");
    await owner.put("/settings/allowregister", { value: "enabled" });
    await owner.put("/settings/trial", { value: "5" });
    assert.deepEqual((await anon.get("/companies/cadastro")).body, { open: true, linked: false, trialDays: 5 });
    await owner.put("/settings/viewregister", { value: "enabled" });
    assert.deepEqual((await anon.get("/companies/cadastro")).body, { open: true, linked: true, trialDays: 5 });
    // The link alone does not open sign-up.
    await owner.put("/settings/allowregister", { value: "disabled" });
    assert.deepEqual((await anon.get("/companies/cadastro")).body, { open: false, linked: false, trialDays: 5 });
    // A company admin cannot open it: the keys are global (super only).
    const admin = await server.login("admin@demo.local");
    assert.equal((await admin.put("/settings/allowregister", { value: "enabled" })).status, 403);
    assert.equal((await anon.get("/companies/cadastro")).body.open, false);
  });
});

Deno.test("POST /companies/cadastro refuses a taken company name with the spec's wording and leaves no user", async () => {
  await withServer(async (server) => {
    const owner = await server.login("super@balcao.local");
    await owner.put("/settings/allowregister", { value: "enabled" });
    const anon = server.client();
    const taken = await anon.post("/companies/cadastro", { ...form(server.demo!.planId), name: "demo" });
    assert.equal(taken.status, 409);
    assert.equal(
      taken.body.fields.name,
      "Não foi possível realizar a operação. Verifique se já existe uma empresa com o mesmo nome ou se os campos foram preenchidos corretamente",
    );
    assert.equal((await anon.post("/auth/login", { email: "maria@flores.local", password: "segredo1" })).status, 401);
  });
});
