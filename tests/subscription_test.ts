import assert from "node:assert/strict";
import { companies, PLATFORM } from "../actors/platform/collections.ts";
import type { TestServer } from "./helpers/server.ts";
import { withServer } from "./helpers/server.ts";

const DAY = 86_400_000;

/** Moves company `id`'s due date (white-box: the billing area owns how it changes). */
async function setDueDate(server: TestServer, id: number, dueDate: number | null) {
  await companies.in(server.deps.system, PLATFORM).update(
    id,
    (old) => ({ ...old, dueDate }),
    () => new Error(`no company ${id}`),
  );
}

Deno.test("login: a company due yesterday is still inside its 3 working days of grace", async () => {
  await withServer(async (server) => {
    await setDueDate(server, server.demo!.companyId, Date.now() - DAY);
    const admin = await server.login("admin@demo.local");
    assert.equal((await admin.get("/users/")).status, 200);
  });
});

Deno.test("login past the grace: 402 with dueDate and a billing-only token", async () => {
  await withServer(async (server) => {
    const due = Date.now() - 10 * DAY;
    await setDueDate(server, server.demo!.companyId, due);
    const client = server.client();
    const login = await client.post("/auth/login", { email: "admin@demo.local", password: "demo1234" });
    assert.equal(login.status, 402);
    assert.equal(login.body.error, "ERR_SUBSCRIPTION_EXPIRED");
    assert.equal(login.body.dueDate, new Date(due).toISOString());
    assert.equal(typeof login.body.token, "string");

    client.token = login.body.token;
    const refused = await client.get("/users/");
    assert.equal(refused.status, 402);
    assert.equal(refused.body.error, "ERR_SUBSCRIPTION_EXPIRED");
    assert.equal(refused.body.dueDate, new Date(due).toISOString());
    const me = await client.get("/auth/me");
    assert.equal(me.status, 200);
    assert.equal(me.body.email, "admin@demo.local");
    // What renewing needs stays readable: the own company, its plan, the plans.
    const own = await client.get(`/companies/${server.demo!.companyId}`);
    assert.equal(own.status, 200);
    assert.equal(own.body.dueDate, new Date(due).toISOString());
    assert.equal((await client.get(`/companies/listPlan/${server.demo!.companyId}`)).status, 200);
    assert.equal((await client.get("/plans/all")).status, 200);
    assert.equal((await client.get(`/companies/${server.demo!.platformId}`)).status, 404);

    // A refresh still gives a billing-only token while the company is past its grace.
    const refreshed = await client.post("/auth/refresh_token");
    assert.equal(refreshed.status, 200);
    client.token = refreshed.body.token;
    assert.equal((await client.get("/users/")).status, 402);

    // Paying (a new due date) opens the product again after a refresh.
    await setDueDate(server, server.demo!.companyId, Date.now() + 30 * DAY);
    assert.equal((await client.get("/users/")).status, 402);
    client.token = (await client.post("/auth/refresh_token")).body.token;
    assert.equal((await client.get("/users/")).status, 200);
  });
});

Deno.test("a full token stops working (402) once its company falls past the grace", async () => {
  await withServer(async (server) => {
    const agent = await server.login("agent@demo.local");
    assert.equal((await agent.get("/users/")).status, 200);
    await setDueDate(server, server.demo!.companyId, Date.now() - 10 * DAY);
    assert.equal((await agent.get("/users/")).status, 402);
    assert.equal((await agent.get("/auth/me")).status, 200);
  });
});

Deno.test("the platform company (the super user's) is never gated, for any of its users", async () => {
  await withServer(async (server) => {
    const platform = server.demo!.platformId;
    const owner = await server.login("super@balcao.local");
    const staff = await owner.post("/users", {
      name: "Equipe",
      email: "equipe@balcao.local",
      password: "12345",
      profile: "admin",
    });
    assert.equal(staff.status, 201);
    await setDueDate(server, platform, Date.now() - 60 * DAY);
    const again = await server.login("super@balcao.local");
    assert.equal((await again.get("/users/")).status, 200);
    const member = await server.login("equipe@balcao.local", "12345");
    assert.equal((await member.get("/users/")).status, 200);
  });
});
