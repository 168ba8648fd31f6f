import assert from "node:assert/strict";
import {
  addPeriod,
  DAY_MS,
  INVOICE_LEAD_DAYS,
  type Invoice,
  invoiceDisplayStatus,
  nextInvoiceAt,
  periodOf,
  renewedDueDate,
} from "./invoice.ts";

const at = (iso: string) => Date.parse(iso);
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const invoice = (over: Partial<Invoice>): Invoice => ({
  id: 1,
  companyId: 2,
  detail: "Plano Completo - 2026-12",
  value: 199.9,
  dueDate: at("2026-12-10T00:00:00Z"),
  period: "2026-12",
  status: "open",
  paidAt: null,
  paidVia: null,
  createdAt: 0,
  updatedAt: 0,
  ...over,
});

Deno.test("invoiceDisplayStatus() is paid, overdue only from the day after the due date, else open", () => {
  const inv = invoice({});
  assert.equal(invoiceDisplayStatus(inv, at("2026-12-09T12:00:00Z")), "open");
  assert.equal(invoiceDisplayStatus(inv, at("2026-12-10T23:59:59Z")), "open", "due today is not overdue");
  assert.equal(invoiceDisplayStatus(inv, at("2026-12-11T00:00:00Z")), "overdue");
  assert.equal(invoiceDisplayStatus({ ...inv, status: "paid" }, at("2027-05-01T00:00:00Z")), "paid");
});

Deno.test("addPeriod() goes to the anchor day of next month, clamped to the month's end", () => {
  assert.equal(day(addPeriod(at("2026-11-15T00:00:00Z"), 15)), "2026-12-15");
  assert.equal(day(addPeriod(at("2026-12-15T00:00:00Z"), 15)), "2027-01-15", "year end");
  assert.equal(day(addPeriod(at("2027-01-31T00:00:00Z"), 31)), "2027-02-28", "non-leap February");
  assert.equal(day(addPeriod(at("2028-01-30T00:00:00Z"), 30)), "2028-02-29", "leap February");
  assert.equal(day(addPeriod(at("2027-03-31T00:00:00Z"), 31)), "2027-04-30");
  // The time of day is kept (a trial's due date is sign-up time plus days).
  assert.equal(addPeriod(at("2026-11-15T17:45:00Z"), 15), at("2026-12-15T17:45:00Z"));
});

Deno.test("addPeriod() with the anchor brings a company created on the 31st back to the 31st", () => {
  const anchor = 31;
  const chain = [at("2028-01-31T00:00:00Z")];
  for (let i = 0; i < 4; i++) chain.push(addPeriod(chain.at(-1)!, anchor));
  assert.deepEqual(chain.map(day), ["2028-01-31", "2028-02-29", "2028-03-31", "2028-04-30", "2028-05-31"]);
});

Deno.test("renewedDueDate() renews from the due date when paid ahead, from today when paid late", () => {
  const now = at("2026-11-26T10:00:00Z");
  // Due in the future: one period past the due date, keeping its day.
  assert.equal(day(renewedDueDate(at("2026-12-05T00:00:00Z"), now)), "2027-01-05");
  // Due today counts as not late.
  assert.equal(day(renewedDueDate(at("2026-11-26T00:00:00Z"), now)), "2026-12-26");
  // Due far in the past: one period from today (the unlicensed months are not billed).
  assert.equal(day(renewedDueDate(at("2025-03-01T00:00:00Z"), now)), "2026-12-26");
  assert.equal(day(renewedDueDate(null, now)), "2026-12-26");
  // A company due on the 31st whose last due date was clamped to 29 Feb goes back to the 31st.
  assert.equal(day(renewedDueDate(at("2028-02-29T00:00:00Z"), at("2028-02-20T00:00:00Z"), 31)), "2028-03-31");
  assert.equal(day(renewedDueDate(at("2028-01-31T00:00:00Z"), at("2028-01-25T00:00:00Z"), 31)), "2028-02-29");
});

Deno.test("nextInvoiceAt() issues 10 days ahead, at once when late, never twice for a period", () => {
  const now = at("2026-11-26T10:00:00Z");
  const due = at("2026-12-20T15:00:00Z");
  assert.equal(nextInvoiceAt({ dueDate: due, planId: 1 }, now), at("2026-12-10T00:00:00Z"));
  assert.equal(nextInvoiceAt({ dueDate: at("2026-11-30T00:00:00Z"), planId: 1 }, now), now, "within 10 days: now");
  assert.equal(nextInvoiceAt({ dueDate: at("2026-01-30T00:00:00Z"), planId: 1 }, now), now, "long overdue: now");
  assert.equal(nextInvoiceAt({ dueDate: due, planId: 1 }, now, new Set(["2026-12"])), null, "already issued");
  assert.equal(nextInvoiceAt({ dueDate: null, planId: 1 }, now), null, "no due date: never billed");
  assert.equal(nextInvoiceAt({ dueDate: due, planId: null }, now), null, "no plan: nothing to price");
  assert.equal(periodOf(due), "2026-12");
  assert.equal(INVOICE_LEAD_DAYS, 10);
  assert.equal(startOfDayOf(due) - nextInvoiceAt({ dueDate: due, planId: 1 }, 0)!, 10 * DAY_MS);
});

const startOfDayOf = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;
