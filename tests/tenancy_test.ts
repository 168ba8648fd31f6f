/**
 * Cross-tenant checks for the administration endpoints: the admin of one company tries
 * every users, companies, settings and plans endpoint against another company's records and
 * gets 404 (the record does not exist for it) or 403 (super-only), and nothing changes.
 */
import assert from "node:assert/strict";
import type { Client } from "./helpers/server.ts";
import { withServer } from "./helpers/server.ts";
import { createTenant } from "./helpers/tenants.ts";

/** Asserts `status` is one of `allowed`, naming the call. */
function refused(what: string, status: number, allowed = [403, 404]) {
  assert.ok(allowed.includes(status), `${what} gave ${status}`);
}

/** What the platform owner sees of everything these tests touch, for "nothing changed". */
async function snapshot(owner: Client, companyIds: number[]) {
  const users = await Promise.all(companyIds.map((id) => owner.get(`/users/list?companyId=${id}`)));
  const settings = await Promise.all(companyIds.map((id) => owner.get(`/companies/${id}`)));
  return JSON.stringify({
    companies: (await owner.get("/companies/list")).body,
    users: users.map((r) => r.body),
    settings: settings.map((r) => r.body.settings),
    plans: (await owner.get("/plans/all")).body,
  });
}

Deno.test("tenancy: an admin cannot read or change another company's users", async () => {
  await withServer(async (server) => {
    const other = await createTenant(server, "Outra Empresa");
    const demoAdmin = await server.login("admin@demo.local");
    const owner = await server.login("super@balcao.local");
    const before = await snapshot(owner, [server.demo!.companyId, other.companyId]);

    const get = await demoAdmin.get(`/users/${other.adminId}`);
    assert.equal(get.status, 404);
    assert.equal(get.body.error, "ERR_NO_USER_FOUND");
    const put = await demoAdmin.put(`/users/${other.adminId}`, { name: "Invadido", password: "hacked1" });
    assert.equal(put.status, 404);
    assert.equal(put.body.error, "ERR_NO_USER_FOUND");
    const del = await demoAdmin.delete(`/users/${other.adminId}`);
    assert.equal(del.status, 404);

    // companyId in a query or body is ignored unless super: the lists stay the caller's own.
    for (const path of [`/users/?companyId=${other.companyId}`, `/users/list?companyId=${other.companyId}`]) {
      const r = await demoAdmin.get(path);
      assert.equal(r.status, 200);
      const rows = Array.isArray(r.body) ? r.body : r.body.users;
      assert.ok(rows.every((u: { companyId: number }) => u.companyId === server.demo!.companyId), path);
    }
    const planted = await demoAdmin.post("/users", {
      name: "Infiltrado",
      email: "infiltrado@x.local",
      password: "12345",
      companyId: other.companyId,
    });
    assert.equal(planted.status, 201);
    assert.equal(planted.body.companyId, server.demo!.companyId);
    assert.equal((await demoAdmin.delete(`/users/${planted.body.id}`)).status, 200);

    // Queues of another company cannot be assigned.
    const otherQueue = await other.admin.put(`/users/${other.adminId}`, { queueIds: [server.demo!.queueIds[0]] });
    refused("PUT own user with a foreign queue", otherQueue.status, [404]);

    // The other admin sees nothing of Demo either.
    const demoUsers = (await demoAdmin.get("/users/list")).body as Array<{ id: number }>;
    for (const u of demoUsers) {
      assert.equal((await other.admin.get(`/users/${u.id}`)).status, 404);
      assert.equal((await other.admin.put(`/users/${u.id}`, { name: "X y" })).status, 404);
    }
    assert.equal(await snapshot(owner, [server.demo!.companyId, other.companyId]), before);
  });
});

Deno.test("tenancy: an admin cannot read or change another company, its plan or its settings", async () => {
  await withServer(async (server) => {
    const other = await createTenant(server, "Outra Empresa");
    const demoAdmin = await server.login("admin@demo.local");
    const owner = await server.login("super@balcao.local");
    const id = other.companyId;
    const before = await snapshot(owner, [server.demo!.companyId, id]);

    const company = await demoAdmin.get(`/companies/${id}`);
    assert.equal(company.status, 404);
    assert.equal(company.body.error, "ERR_NO_COMPANY_FOUND");
    assert.equal((await demoAdmin.get(`/companies/listPlan/${id}`)).status, 404);
    const schedules = [{ weekday: "Segunda-feira", weekdayEn: "monday", startTime: "01:00", endTime: "02:00" }];
    assert.equal((await demoAdmin.put(`/companies/${id}/schedules`, { id, schedules })).status, 404);
    refused("PUT /companies/{id}", (await demoAdmin.put(`/companies/${id}`, { name: "Tomada", email: "a@b.co" })).status);
    refused("DELETE /companies/{id}", (await demoAdmin.delete(`/companies/${id}`)).status);
    refused("GET /companies", (await demoAdmin.get("/companies")).status);
    refused("GET /companies/list", (await demoAdmin.get("/companies/list")).status);
    refused("POST /companies/internal", (await demoAdmin.post("/companies/internal", {})).status);

    // Settings: a write lands in the caller's own company only; global keys are super's.
    assert.equal((await other.admin.put("/settings/userRating", { value: "enabled" })).status, 200);
    assert.equal((await demoAdmin.get("/settings/userRating")).body.value, "disabled");
    refused("PUT global setting", (await demoAdmin.put("/settings/allowregister", { value: "enabled" })).status, [403]);
    assert.equal((await other.admin.put("/settings/userRating", { value: "disabled" })).status, 200);

    // Plans are platform data: reading is fine, writing is super's.
    const planId = server.demo!.planId;
    refused("PUT /plans/{id}", (await demoAdmin.put(`/plans/${planId}`, { users: 1000 })).status, [403]);
    refused("DELETE /plans/{id}", (await demoAdmin.delete(`/plans/${planId}`)).status, [403]);
    refused("POST /plans", (await demoAdmin.post("/plans", { name: "Grátis" })).status, [403]);
    refused("POST /helps", (await demoAdmin.post("/helps", { title: "Spam" })).status, [403]);

    assert.equal(await snapshot(owner, [server.demo!.companyId, id]), before);
  });
});

Deno.test("tenancy: the super user reaches every company's records", async () => {
  await withServer(async (server) => {
    const other = await createTenant(server, "Outra Empresa");
    const owner = await server.login("super@balcao.local");
    assert.equal((await owner.get(`/users/${other.adminId}`)).status, 200);
    assert.equal((await owner.get(`/companies/listPlan/${other.companyId}`)).status, 200);
    const list = await owner.get(`/users/?companyId=${other.companyId}`);
    assert.deepEqual(list.body.users.map((u: { id: number }) => u.id), [other.adminId]);
    const renamed = await owner.put(`/users/${other.adminId}`, { name: "Renomeado" });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.companyId, other.companyId);
  });
});
