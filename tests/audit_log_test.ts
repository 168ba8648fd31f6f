/**
 * The audit log (issue #24): every audited action of admins and super users (users, settings,
 * plans, companies, connections) and the logins, failed logins and lockouts appear in the
 * right company's GET /audit-log with who did what to which record; the filters narrow it;
 * another company's admin sees none of it; agents and supervisors get 403.
 */
import assert from "node:assert/strict";
import { demoConnection } from "./helpers/channels.ts";
import { type Client, DEMO_PASSWORD, withServer } from "./helpers/server.ts";

interface Entry {
  id: string;
  companyId: number;
  at: string;
  action: string;
  userId: number | null;
  userName: string | null;
  bySuper: boolean;
  target: { kind: string; id: number | string; name?: string };
  detail: Record<string, unknown>;
  count: number;
  address?: string;
}

async function all(client: Client, query = ""): Promise<Entry[]> {
  const out: Entry[] = [];
  for (let page = 1; page < 50; page++) {
    const r = await client.get(`/audit-log?pageNumber=${page}${query}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    out.push(...r.body.records);
    if (!r.body.hasMore) return out;
  }
  throw new Error("too many pages");
}

function find(entries: Entry[], action: string, targetId?: number | string): Entry {
  const found = entries.find((e) => e.action === action && (targetId === undefined || e.target.id === targetId));
  assert.ok(found, `${action} ${targetId ?? ""} in ${JSON.stringify(entries.map((e) => [e.action, e.target.id]))}`);
  return found;
}

Deno.test("GET /audit-log shows who changed which user, setting, plan, company and connection, and the logins", async () => {
  await withServer(async (server) => {
    const companyId = server.demo!.companyId;
    const owner = await server.login("super@balcao.local");
    const admin = server.client();
    const signedIn = await admin.post("/auth/login", { email: "admin@demo.local", password: DEMO_PASSWORD });
    admin.token = signedIn.body.token;
    const adminId = signedIn.body.user.id as number;

    // Users.
    const user = await admin.post("/users", { name: "Rita Souza", email: "rita@demo.local", password: "segredo1", profile: "user" });
    assert.equal(user.status, 201, JSON.stringify(user.body));
    assert.equal((await admin.put(`/users/${user.body.id}`, { name: "Rita S.", password: "outra123" })).status, 200);
    assert.equal((await admin.delete(`/users/${user.body.id}`)).status, 200);
    // A setting, a connection.
    assert.equal((await admin.put("/settings/userRating", { value: "enabled" })).status, 200);
    const conn = await demoConnection(admin);
    const full = (await admin.get(`/whatsapp/${conn.id}`)).body;
    assert.equal((await admin.put(`/whatsapp/${conn.id}`, { ...full, name: "WhatsApp Demo", greetingMessage: "Olá!" })).status, 200);
    // Super: a plan, a company (and its update).
    const plan = await owner.post("/plans", { name: "Básico", users: 3, connections: 1, queues: 2, value: 10 });
    assert.equal(plan.status, 201);
    assert.equal((await owner.put(`/plans/${plan.body.id}`, { value: 12 })).status, 200);
    const company = await owner.post("/companies", { name: "Padaria", email: "contato@padaria.local", planId: plan.body.id });
    assert.equal(company.status, 201, JSON.stringify(company.body));
    assert.equal((await owner.put(`/companies/${company.body.id}`, { name: "Padaria Nova", email: "contato@padaria.local" })).status, 200);

    const log = await all(admin);
    const created = find(log, "user.create", user.body.id);
    assert.equal(created.userId, adminId);
    assert.ok(created.userName, "who acted is named");
    assert.equal(created.target.name, "Rita Souza");
    assert.equal(created.companyId, companyId);
    const updated = find(log, "user.update", user.body.id);
    assert.deepEqual(updated.detail.fields, ["name"]);
    // Setting another user's password is its own entry (#38), with no password in it.
    const reset = find(log, "user.password", user.body.id);
    assert.equal(reset.userName, "Ana Admin");
    assert.ok(!JSON.stringify(log).includes("outra123"), "never a password");
    find(log, "user.delete", user.body.id);
    assert.deepEqual(find(log, "setting.update", "userRating").detail, { value: "enabled" });
    const connUpdate = find(log, "connection.update", conn.id);
    assert.ok((connUpdate.detail.fields as string[]).includes("greetingMessage"));
    find(log, "login.success", adminId);
    assert.ok(log.every((e) => e.companyId === companyId));
    // Newest first.
    assert.deepEqual(log.map((e) => e.id), [...log.map((e) => e.id)].sort().reverse());

    // The super user's own company log holds the plan and company changes.
    const ownerLog = await all(owner);
    const planEntry = find(ownerLog, "plan.create", plan.body.id);
    assert.equal(planEntry.bySuper, true);
    find(ownerLog, "plan.update", plan.body.id);
    find(ownerLog, "company.create", company.body.id);
    // The new company's log says who created and changed it (a super user may read it).
    const other = await all(owner, `&companyId=${company.body.id}`);
    assert.deepEqual(other.map((e) => e.action).sort(), ["company.create", "company.update"]);
    assert.deepEqual(find(other, "company.update").detail.fields, ["name"]);

    // Filters: action, user (who acted or was acted on), date range.
    const onlyCreates = await all(admin, "&action=user.create");
    assert.deepEqual(onlyCreates.map((e) => e.target.id), [user.body.id]);
    const aboutRita = await all(admin, `&userId=${user.body.id}`);
    assert.deepEqual(aboutRita.map((e) => e.action).sort(), ["user.create", "user.delete", "user.password", "user.update"]);
    const byAdmin = await all(admin, `&userId=${adminId}&action=setting.update`);
    assert.equal(byAdmin.length, 1);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    assert.deepEqual(await all(admin, `&from=${tomorrow}`), []);
    const today = new Date().toISOString().slice(0, 10);
    assert.equal((await all(admin, `&from=${today}&to=${today}`)).length, log.length);
    assert.equal((await admin.get("/audit-log?action=nope")).status, 400);
    assert.equal((await admin.get("/audit-log?from=yesterday")).status, 400);
  });
});

Deno.test("GET /audit-log records failed logins and lockouts, folded per user", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const anon = server.client();
    let locked = false;
    for (let i = 0; i < 10 && !locked; i++) {
      const r = await anon.post("/auth/login", { email: "supervisor@demo.local", password: "errada" });
      assert.ok(r.status === 401 || r.status === 429, `${r.status}`);
      locked = r.status === 429;
    }
    assert.ok(locked, "the pair is locked out");
    await anon.post("/auth/login", { email: "supervisor@demo.local", password: "errada" });
    // An unknown e-mail belongs to no company: nothing is recorded.
    await anon.post("/auth/login", { email: "ninguem@demo.local", password: "errada" });
    const log = await all(admin);
    const failed = log.filter((e) => e.action === "login.failed");
    assert.equal(failed.length, 1, "repeats fold into one entry");
    assert.equal(failed[0].count, 3);
    assert.equal(failed[0].userId, null);
    assert.ok(failed[0].target.name, "the user whose password was tried is named");
    assert.ok(failed[0].address);
    const lockedEntry = find(log, "login.locked");
    assert.equal(lockedEntry.count, 2);
    assert.ok(log.every((e) => !JSON.stringify(e).includes("ninguem")));
  }, { loginLimits: { pairMax: 3, emailFreeFailures: 100 } });
});

Deno.test("GET /audit-log is the caller's company's only, and only for admins", async () => {
  await withServer(async (server) => {
    const owner = await server.login("super@balcao.local");
    const company = await owner.post("/companies", { name: "Outra", email: "o@outra.local", planId: server.demo!.planId });
    assert.equal(company.status, 201);
    const otherAdmin = await owner.post("/users", {
      name: "Admin Outra",
      email: "admin@outra.local",
      password: "segredo1",
      profile: "admin",
      companyId: company.body.id,
    });
    assert.equal(otherAdmin.status, 201, JSON.stringify(otherAdmin.body));
    const admin = await server.login("admin@demo.local");
    assert.equal((await admin.put("/settings/userRating", { value: "enabled" })).status, 200);

    const b = await server.login("admin@outra.local", "segredo1");
    const theirs = await all(b);
    assert.ok(theirs.length > 0);
    assert.ok(theirs.every((e) => e.companyId === company.body.id), JSON.stringify(theirs));
    assert.ok(!theirs.some((e) => e.action === "setting.update"));
    // Naming another company is for super users only: an admin still gets their own.
    const named = await all(b, `&companyId=${server.demo!.companyId}`);
    assert.ok(named.every((e) => e.companyId === company.body.id));

    for (const email of ["agent@demo.local", "supervisor@demo.local"]) {
      const who = await server.login(email);
      const r = await who.get("/audit-log");
      assert.equal(r.status, 403, `${email}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.error, "ERR_NO_PERMISSION");
    }
    assert.equal((await server.client().get("/audit-log")).status, 401);
  });
});
