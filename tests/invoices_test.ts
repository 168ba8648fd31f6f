/**
 * Invoices (issue #21) on a real server: issuing per period, the list and its scopes, the
 * super user's manual payment (audit, due date, live event over a real socket), idempotent
 * settlement, the expired company's billing token, and no duplicate invoice across restarts.
 */
import assert from "node:assert/strict";
import { type ArmedTimer, timerKey } from "../actors/_runtime/timers.ts";
import { companies, PLATFORM } from "../actors/platform/collections.ts";
import { billingRegistry, invoicesOf, listInvoices, listPayments } from "../actors/invoices/mod.ts";
import { periodOf } from "../domain/invoice.ts";
import { settleInvoice } from "../server/billing/invoices.ts";
import { type Client, startTestServer, type TestServer, withServer } from "./helpers/server.ts";
import { createTenant } from "./helpers/tenants.ts";
import { SocketPool } from "./helpers/ws.ts";

const DAY = 86_400_000;

/** The super user's PUT /companies/{id} with a new due date (the company form's whole body). */
async function putDueDate(owner: Client, server: TestServer, id: number, dueDate: number) {
  const company = await companies.in(server.deps.system, PLATFORM).get(id);
  const res = await owner.put(`/companies/${id}`, {
    name: company!.name,
    email: company!.email || "x@y.local",
    planId: company!.planId,
    dueDate: new Date(dueDate).toISOString(),
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
}

/** Start of the UTC day `months` months from now, on day 15 (no month-end clamping). */
function monthsAgo(months: number): number {
  const d = new Date();
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - months, 15);
}

const dueOf = async (server: TestServer, id: number) => (await companies.in(server.deps.system, PLATFORM).get(id))!.dueDate;

Deno.test("GET /invoices/all: one invoice per period, newest due first, 20 a page, search; never another company's", async () => {
  await withServer(async (server) => {
    const owner = await server.login("super@balcao.local");
    const tenant = await createTenant(server, "Fatura Ltda");
    // The sign-up's 3-day trial is within the lead time: its first invoice exists at once.
    const first = await tenant.admin.get("/invoices/all");
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.count, 1);
    assert.equal(first.body.invoices[0].value, 199.9);
    assert.equal(first.body.invoices[0].status, "open");
    assert.match(first.body.invoices[0].dueDate, /T00:00:00.000Z$/);
    assert.equal(first.body.invoices[0].companyName, undefined, "own rows carry no company name");

    // 22 past due dates → 22 more periods; setting one twice issues it once.
    for (let m = 1; m <= 22; m++) await putDueDate(owner, server, tenant.companyId, monthsAgo(m));
    await putDueDate(owner, server, tenant.companyId, monthsAgo(3));
    const page1 = await tenant.admin.get("/invoices/all?pageNumber=1");
    assert.equal(page1.body.count, 23);
    assert.equal(page1.body.invoices.length, 20);
    assert.equal(page1.body.hasMore, true);
    const dues = page1.body.invoices.map((i: { dueDate: string }) => Date.parse(i.dueDate));
    assert.deepEqual(dues, [...dues].sort((a, b) => b - a), "newest due date first");
    const page2 = await tenant.admin.get("/invoices/all?pageNumber=2");
    assert.equal(page2.body.invoices.length, 3);
    assert.equal(page2.body.hasMore, false);
    const periods = [...page1.body.invoices, ...page2.body.invoices].map((i: { period: string }) => i.period);
    assert.equal(new Set(periods).size, 23, "one invoice per period");

    const period = new Date(monthsAgo(5)).toISOString().slice(0, 7);
    const found = await tenant.admin.get(`/invoices/all?searchParam=${period}`);
    assert.equal(found.body.count, 1);
    assert.equal(found.body.invoices[0].period, period);

    // The demo company sees none of them; another company's invoice id is a 404.
    const demoAdmin = await server.login("admin@demo.local");
    const demoList = await demoAdmin.get("/invoices/all");
    assert.equal(demoList.status, 200);
    assert.ok(demoList.body.invoices.every((i: { companyId: number }) => i.companyId === server.demo!.companyId));
    const foreign = await demoAdmin.get(`/invoices/${first.body.invoices[0].id}`);
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.error, "ERR_NO_INVOICE_FOUND");
    assert.equal((await tenant.admin.get(`/invoices/${first.body.invoices[0].id}`)).body.id, first.body.invoices[0].id);
    assert.equal((await tenant.admin.get("/invoices/999999")).status, 404);
    assert.equal((await tenant.admin.get("/invoices/abc")).status, 404);

    // An agent has no financeiro:view.
    const agent = await server.login("agent@demo.local");
    assert.equal((await agent.get("/invoices/all")).status, 403);
    assert.equal((await agent.get("/payments")).status, 403);
    const supervisor = await server.login("supervisor@demo.local");
    assert.equal((await supervisor.get("/invoices/all")).status, 200);
  });
});

Deno.test("POST /invoices/{id}/pay: super only, with a reason; audited, due date renewed, CONCLUIDA on the company's socket", async () => {
  await withServer(async (server) => {
    const pool = new SocketPool(server.url);
    try {
      const owner = await server.login("super@balcao.local");
      const tenant = await createTenant(server, "Paga Bem");
      const before = (await dueOf(server, tenant.companyId))!;
      const all = await owner.get(`/invoices/all?companyId=${tenant.companyId}`);
      assert.equal(all.body.count, 1);
      assert.equal(all.body.invoices[0].companyName, "Paga Bem");
      const invoice = all.body.invoices[0];
      const everyone = await owner.get("/invoices/all");
      assert.ok(everyone.body.invoices.some((i: { id: number }) => i.id === invoice.id), "super sees every company's");
      assert.equal((await owner.get(`/invoices/${invoice.id}`)).body.companyId, tenant.companyId);

      assert.equal((await tenant.admin.post(`/invoices/${invoice.id}/pay`, { reason: "paid cash" })).status, 403);
      const short = await owner.post(`/invoices/${invoice.id}/pay`, { reason: "x" });
      assert.equal(short.status, 400);
      assert.equal(short.body.fields?.reason, "Too Short!");

      const ws = await pool.connect(tenant.admin.token!);
      const paid = await owner.post(`/invoices/${invoice.id}/pay`, { reason: "Pix recebido no balcão" });
      assert.equal(paid.status, 200, JSON.stringify(paid.body));
      assert.equal(paid.body.status, "paid");
      assert.equal(paid.body.paidVia, "manual");
      const frame = await ws.event(`company-${tenant.companyId}-payment`, (d) => d.action === "CONCLUIDA");
      const data = frame.data as { company: { id: number; dueDate: string }; invoice: { id: number; status: string } };
      assert.equal(data.company.id, tenant.companyId);
      assert.equal(data.invoice.id, invoice.id);
      assert.equal(data.invoice.status, "paid");
      // A trial due in 3 days renews one month past its due date, keeping its day.
      const after = (await dueOf(server, tenant.companyId))!;
      assert.equal(data.company.dueDate, new Date(after).toISOString());
      const d0 = new Date(before);
      assert.equal(after, Date.UTC(d0.getUTCFullYear(), d0.getUTCMonth() + 1, d0.getUTCDate()) + (before % DAY));

      const again = await owner.post(`/invoices/${invoice.id}/pay`, { reason: "twice" });
      assert.equal(again.status, 409);
      assert.equal(await dueOf(server, tenant.companyId), after, "moved once");

      const log = await tenant.admin.get("/audit-log?action=invoice.pay");
      assert.equal(log.status, 200);
      assert.equal(log.body.records.length, 1);
      assert.equal(log.body.records[0].detail.reason, "Pix recebido no balcão");
      assert.equal(log.body.records[0].detail.provider, "manual");
      assert.equal(log.body.records[0].target.kind, "invoice");
      const payments = await tenant.admin.get("/payments");
      assert.equal(payments.body.length, 1);
      assert.equal(payments.body[0].invoice, invoice.id);
      assert.equal(payments.body[0].value, invoice.value);
      assert.equal(typeof payments.body[0].paidAt, "string");
    } finally {
      await pool.closeAll();
    }
  });
});

Deno.test("settleInvoice() is idempotent on (provider, eventId) and refuses short values, paid invoices and foreign replays", async () => {
  await withServer(async (server) => {
    const { deps } = server;
    const a = await createTenant(server, "Alfa Pagamentos");
    const b = await createTenant(server, "Beta Pagamentos");
    const [invA] = await listInvoices(deps.system, a.companyId);
    const [invB] = await listInvoices(deps.system, b.companyId);
    const dueA = (await dueOf(server, a.companyId))!;

    const short = await settleInvoice(deps, { invoiceId: invA.id, companyId: a.companyId, provider: "stripe", eventId: "evt_short", value: invA.value - 1 });
    assert.equal(short.settled, false);
    assert.equal(await dueOf(server, a.companyId), dueA);

    const event = { invoiceId: invA.id, companyId: a.companyId, provider: "stripe", eventId: "evt_1", value: invA.value };
    const [one, two] = await Promise.all([settleInvoice(deps, event), settleInvoice(deps, event)]);
    assert.deepEqual([one.settled, two.settled].sort(), [false, true], "the same event twice settles once");
    const renewed = (await dueOf(server, a.companyId))!;
    assert.ok(renewed > dueA);
    assert.equal((await settleInvoice(deps, event)).settled, false);
    assert.equal(await dueOf(server, a.companyId), renewed, "due date moved once");
    assert.equal((await listPayments(deps.system, a.companyId)).length, 1);

    const other = await settleInvoice(deps, { ...event, eventId: "evt_2" });
    assert.equal(other.settled, false, "an invoice already paid is not paid again");
    assert.equal((await listPayments(deps.system, a.companyId)).length, 1);

    // The event id seen for company A's invoice, replayed with company B's: nothing changes.
    const dueB = await dueOf(server, b.companyId);
    const replay = await settleInvoice(deps, { invoiceId: invB.id, companyId: b.companyId, provider: "stripe", eventId: "evt_1", value: invB.value });
    assert.equal(replay.settled, false);
    assert.equal(await dueOf(server, b.companyId), dueB);
    assert.equal((await listPayments(deps.system, b.companyId)).length, 0);
    // An invoice id of another company is a 404, whatever the event.
    await assert.rejects(
      settleInvoice(deps, { invoiceId: invA.id, companyId: b.companyId, provider: "stripe", eventId: "evt_3", value: 999 }),
      (e: Error & { code?: string }) => e.code === "ERR_NO_INVOICE_FOUND",
    );
  });
});

Deno.test("settleInvoice() heals a payment recorded before a crash: the redelivered event moves the due date and announces once", async () => {
  await withServer(async (server) => {
    const { deps } = server;
    const pool = new SocketPool(server.url);
    try {
      const tenant = await createTenant(server, "Gama Pagamentos");
      const ws = await pool.connect(tenant.admin.token!);
      const [invoice] = await listInvoices(deps.system, tenant.companyId);
      const due = (await dueOf(server, tenant.companyId))!;
      const event = { invoiceId: invoice.id, companyId: tenant.companyId, provider: "asaas", eventId: "pay_crash", value: invoice.value };
      // Steps 1 and 2 ran, then the process died before the due date moved.
      await deps.system.ref(billingRegistry, 0).ask("claim", { ...event });
      const recorded = await invoicesOf(deps.system, tenant.companyId).ask("settle", event);
      assert.equal(recorded.type, "paid");
      assert.equal(await dueOf(server, tenant.companyId), due);
      // The provider redelivers: the recorded payment is applied, once.
      const healed = await settleInvoice(deps, event);
      assert.equal(healed.settled, true);
      assert.ok(healed.dueDate! > due);
      assert.equal((await settleInvoice(deps, event)).settled, false);
      await ws.event(`company-${tenant.companyId}-payment`, (d) => d.action === "CONCLUIDA");
      assert.equal(ws.eventsOn(`company-${tenant.companyId}-payment`).length, 1);
      const payments = await listPayments(deps.system, tenant.companyId);
      assert.deepEqual(payments.map((p) => [p.eventId, p.applied]), [["pay_crash", true]]);
    } finally {
      await pool.closeAll();
    }
  });
});

Deno.test("an expired company's billing token lists and reads its invoices and payments, and nothing else", async () => {
  await withServer(async (server) => {
    const owner = await server.login("super@balcao.local");
    const demoId = server.demo!.companyId;
    const overdue = Date.now() - 20 * DAY;
    await putDueDate(owner, server, demoId, overdue);
    const client = server.client();
    const login = await client.post("/auth/login", { email: "admin@demo.local", password: "demo1234" });
    assert.equal(login.status, 402);
    client.token = login.body.token;
    const list = await client.get("/invoices/all");
    assert.equal(list.status, 200, JSON.stringify(list.body));
    // Beside the one the demo seed issued for its coming period (due 8 days after the seed).
    const invoice = list.body.invoices.find((i: { period: string }) => i.period === periodOf(overdue));
    assert.ok(invoice, "the overdue period's invoice was issued when the due date was set");
    assert.equal((await client.get(`/invoices/${invoice.id}`)).status, 200);
    assert.equal((await client.get("/payments")).status, 200);
    assert.equal((await client.get("/users/")).status, 402);
    assert.equal((await client.get("/tags/")).status, 402);
    assert.equal((await client.post(`/invoices/${invoice.id}/pay`, { reason: "self service" })).status, 402);
  });
});

Deno.test("an expired company's billing socket gets its CONCLUIDA payment event and no other event", async () => {
  await withServer(async (server) => {
    const pool = new SocketPool(server.url);
    try {
      const owner = await server.login("super@balcao.local");
      const demoId = server.demo!.companyId;
      await putDueDate(owner, server, demoId, Date.now() - 20 * DAY);
      const login = await server.client().post("/auth/login", { email: "admin@demo.local", password: "demo1234" });
      assert.equal(login.status, 402);
      const ws = await pool.connect(login.body.token);
      // A company event published before the payment: the billing socket must skip it.
      server.deps.bus.publish({ companyId: demoId, channel: `company-${demoId}-tag`, data: { action: "create", tag: { id: 1 } }, scope: { kind: "company" } });
      const [invoice] = await listInvoices(server.deps.system, demoId);
      const paid = await owner.post(`/invoices/${invoice.id}/pay`, { reason: "Pago por transferência" });
      assert.equal(paid.status, 200);
      const frame = await ws.event(`company-${demoId}-payment`, (d) => d.action === "CONCLUIDA");
      const renewed = (frame.data as { company: { dueDate: string } }).company.dueDate;
      assert.ok(Date.parse(renewed) > Date.now(), "renewed from today");
      assert.deepEqual(ws.events().map((e) => e.channel), [`company-${demoId}-payment`]);
      // Renewed: the same user logs in normally again.
      assert.equal((await server.client().post("/auth/login", { email: "admin@demo.local", password: "demo1234" })).status, 200);
    } finally {
      await pool.closeAll();
    }
  });
});

Deno.test("the invoice timer survives restarts without issuing a period twice", async () => {
  const dir = await Deno.makeTempDir({ prefix: "balcao-invoices-" });
  const kvPath = `${dir}/store.kv`;
  try {
    let server = await startTestServer({ kvPath, demo: "auto" });
    let near: number, far: number;
    try {
      const owner = await server.login("super@balcao.local");
      near = (await createTenant(server, "Perto")).companyId;
      far = (await createTenant(server, "Longe")).companyId;
      await putDueDate(owner, server, far, Date.now() + 40 * DAY);
      assert.equal((await listInvoices(server.deps.system, near)).length, 1);
      assert.equal((await listInvoices(server.deps.system, far)).length, 1, "the trial's invoice");
    } finally {
      await server.close();
    }
    for (let restart = 0; restart < 2; restart++) {
      server = await startTestServer({ kvPath, demo: "auto" });
      try {
        assert.equal((await listInvoices(server.deps.system, near)).length, 1, `restart ${restart}: no duplicate`);
        assert.equal((await listInvoices(server.deps.system, far)).length, 1, `restart ${restart}: next period not yet issued`);
        const armed = await server.deps.kv.get<ArmedTimer>(timerKey("invoices", String(far), "issue"));
        const farDue = (await dueOf(server, far))!;
        assert.equal(armed.value?.dueAt, Math.floor(farDue / DAY) * DAY - 10 * DAY, "armed 10 days before the new due date");
      } finally {
        await server.close();
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
