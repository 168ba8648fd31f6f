import assert from "node:assert/strict";
import { invoiceToPay, type InvoiceRow, rowStatus } from "./invoice_rows.ts";
import { addressOf } from "./AddressFields.tsx";
import { paymentsPage } from "./PaidInvoices.tsx";

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 26, 15, 0);

function row(id: number, dueDate: number, status: InvoiceRow["status"] = "open"): InvoiceRow {
  return { id, companyId: 1, detail: `Plano - ${id}`, value: 199.9, dueDate: new Date(dueDate).toISOString(), period: "2026-11", status, paidAt: null, paidVia: null };
}

Deno.test("rowStatus() reads the ISO due date: paid → paid, due before today → overdue, due today or later → open", () => {
  const today = Date.UTC(2026, 10, 26);
  assert.equal(rowStatus(row(1, today - DAY, "paid"), NOW), "paid");
  assert.equal(rowStatus(row(1, today - DAY), NOW), "overdue");
  assert.equal(rowStatus(row(1, today), NOW), "open");
  assert.equal(rowStatus(row(1, today + 5 * DAY), NOW), "open");
});

Deno.test("invoiceToPay() picks the newest unpaid invoice, or none", () => {
  const rows = [row(3, NOW + 30 * DAY, "paid"), row(2, NOW), row(1, NOW - 30 * DAY)];
  assert.equal(invoiceToPay(rows)?.id, 2);
  assert.equal(invoiceToPay([row(4, NOW, "paid")]), undefined);
  assert.equal(invoiceToPay([]), undefined);
});

Deno.test("addressOf() maps the company's billing fields and drops the empty ones", () => {
  assert.deepEqual(addressOf(null), {});
  assert.deepEqual(
    addressOf({ name: "Demo", billingName: "", addressZipCode: "01310-100", addressStreet: "Av. Paulista", addressState: null, addressCity: "São Paulo" }),
    { firstName: "Demo", zipcode: "01310-100", address2: "Av. Paulista", city: "São Paulo" },
  );
  assert.equal(addressOf({ name: "Demo", billingName: "Demo Ltda" }).firstName, "Demo Ltda");
});

Deno.test("paymentsPage() takes GET /payments as a plain list or as a page", () => {
  const p = { id: 1, invoice: 7, detail: "x", value: 10, paidAt: "2026-11-26T00:00:00.000Z" };
  assert.deepEqual(paymentsPage([p]), { rows: [p], hasMore: false, count: 1 });
  assert.deepEqual(paymentsPage({ payments: [p], hasMore: true, count: 30 }), { rows: [p], hasMore: true, count: 30 });
});
