/**
 * The demo's billing (issue #21): whoever runs the demo finds an invoice on /financeiro to try
 * the checkout with. The seed makes the demo company due DEMO_DUE_DAYS ahead, inside the
 * invoices' issue lead, so its coming period's invoice is issued at start-up, and outside the
 * top bar's "vence em N dias" warning; the checkout offers the payment simulator.
 */
import assert from "node:assert/strict";
import { INVOICE_LEAD_DAYS, periodOf, startOfDay } from "../domain/invoice.ts";
import { dueWarning } from "../islands/shell/TopBar.tsx";
import { DEMO_DUE_DAYS } from "../server/seed/demo.ts";
import { withServer } from "./helpers/server.ts";

const DAY = 86_400_000;

Deno.test("the demo company starts with its coming invoice open, no due-date warning, and the simulator at checkout", async () => {
  assert.ok(DEMO_DUE_DAYS < INVOICE_LEAD_DAYS, "due inside the issue lead: invoiced at start-up");
  const before = Date.now();
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const company = (await admin.get(`/companies/${server.demo!.companyId}`)).body;
    const due = Date.parse(company.dueDate);
    assert.ok(due >= before + DEMO_DUE_DAYS * DAY && due <= Date.now() + DEMO_DUE_DAYS * DAY, company.dueDate);
    assert.equal(dueWarning(company.dueDate), null, "no 'vence em N dias' in the top bar");

    const list = await admin.get("/invoices/all");
    assert.equal(list.status, 200, JSON.stringify(list.body));
    assert.equal(list.body.count, 1);
    const [invoice] = list.body.invoices;
    assert.equal(invoice.status, "open");
    assert.equal(invoice.period, periodOf(due));
    assert.equal(Date.parse(invoice.dueDate), startOfDay(due));
    assert.equal(invoice.value, 199.9);

    const checkout = await admin.post("/subscription", {
      firstName: "Ana Admin",
      address2: "Rua das Flores, 10",
      city: "Curitiba",
      zipcode: "80010-000",
      country: "BR",
      plan: JSON.stringify({ price: 199.9, users: 50, connections: 10 }),
      price: 199.9,
      users: 50,
      connections: 10,
      invoiceId: invoice.id,
    });
    assert.equal(checkout.status, 200, JSON.stringify(checkout.body));
    assert.ok(checkout.body.simulatorURL?.startsWith("/simulator/payments/"), JSON.stringify(checkout.body));
  });
});
