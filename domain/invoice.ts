/**
 * Invoices and payments of a company's subscription (spec 001 §2.20, §3 Invoice, §4 Invoice
 * display status; issue #21), and the calendar rules of the MENSAL recurrence: when an
 * invoice is issued, when a paid one moves the company's due date. Pure: every function
 * takes the clock as an argument. Dates are UTC, compared by calendar day like the
 * subscription gate (domain/subscription.ts).
 */
import { z } from "zod";
import { isoDate } from "./iso_date.ts";
import { SearchPage } from "./paging.ts";
import { sized } from "./text.ts";

export const DAY_MS = 86_400_000;

/** Days before the due date on which the period's invoice is issued. */
export const INVOICE_LEAD_DAYS = 10;

/** Invoices per page of GET /invoices/all. */
export const INVOICE_PAGE_SIZE = 20;

export const InvoiceStatus = z.enum(["open", "paid"]);
export type InvoiceStatus = z.infer<typeof InvoiceStatus>;

export const Invoice = z.object({
  id: z.number(),
  companyId: z.number(),
  detail: z.string(),
  /** BRL, 2 decimals. */
  value: z.number(),
  /** UTC start of the due day, ms. */
  dueDate: z.number(),
  /** The recurrence period it bills, "2026-12" (one invoice per period and company). */
  period: z.string(),
  status: InvoiceStatus,
  paidAt: z.number().nullable(),
  /** The provider that was paid ("stripe", "efi"…) or "manual" (marked by the super user). */
  paidVia: z.string().nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type Invoice = z.infer<typeof Invoice>;

/**
 * One received payment. `dueDateBefore`/`dueDateAfter` record the renewal it decided, so the
 * company's due date can be (re)applied from the payment alone; `applied` turns true once it
 * was (actors/invoices/actor.ts applyRenewal).
 */
export const Payment = z.object({
  id: z.number(),
  invoiceId: z.number(),
  companyId: z.number(),
  value: z.number(),
  paidAt: z.number(),
  provider: z.string(),
  eventId: z.string(),
  dueDateBefore: z.number().nullable(),
  dueDateAfter: z.number(),
  applied: z.boolean(),
});
export type Payment = z.infer<typeof Payment>;

/** The key of a payment event: a provider's event id is unique within that provider only. */
export function paymentEventKey(provider: string, eventId: string): string {
  return `${provider}:${eventId}`;
}

/** An invoice as the API answers it: dates as ISO text, like Company.dueDate. */
export function invoiceJson(inv: Invoice) {
  return {
    ...inv,
    dueDate: isoDate(inv.dueDate),
    paidAt: isoDate(inv.paidAt),
    createdAt: isoDate(inv.createdAt),
    updatedAt: isoDate(inv.updatedAt),
  };
}

/** A row of GET /payments (spec 001 §3 payment-history row). */
export function paymentRow(payment: Payment, invoice: Invoice | undefined) {
  return {
    id: payment.id,
    invoice: payment.invoiceId,
    detail: invoice?.detail ?? "",
    value: payment.value,
    paidAt: isoDate(payment.paidAt),
  };
}

/** Money rounded to cents. */
export function cents(value: number): number {
  return Math.round(value * 100) / 100;
}

/** UTC start of the day of `ms`. */
export function startOfDay(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/** The UTC day of the month of `ms` (1–31). */
export function dayOfMonth(ms: number): number {
  return new Date(ms).getUTCDate();
}

/** The period ("YYYY-MM") a due date bills. */
export function periodOf(dueDate: number): string {
  return new Date(dueDate).toISOString().slice(0, 7);
}

/** Display status key (spec 001 §4; the locales give Pago, Vencido, Em Aberto): paid; due before today: overdue; else open. */
export function invoiceDisplayStatus(inv: Pick<Invoice, "status" | "dueDate">, now: number): "paid" | "overdue" | "open" {
  if (inv.status === "paid") return "paid";
  return startOfDay(inv.dueDate) < startOfDay(now) ? "overdue" : "open";
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/**
 * One MENSAL period after `dueDate`: the `anchorDay` of the next month, clamped to that
 * month's last day, at the same time of day. Passing the original anchor each time brings a
 * clamped date back: a company due on the 31st is due 31 Jan, 29 Feb 2028, 31 Mar.
 */
export function addPeriod(dueDate: number, anchorDay: number): number {
  const d = new Date(dueDate);
  const year = d.getUTCFullYear();
  const month = d.getUTCMonth() + 1;
  const day = Math.min(Math.max(1, anchorDay), daysInMonth(year, month));
  return Date.UTC(year, month, day) + (dueDate - startOfDay(dueDate));
}

/**
 * The due date a payment at `now` gives: one period past the later of today and the old due
 * date. Renewing ahead keeps the company's billing day (`anchorDay`, by default the old due
 * date's day); renewing late starts the new period today, so the days without a licence are
 * not billed.
 */
export function renewedDueDate(oldDue: number | null, now: number, anchorDay?: number): number {
  return renewal(oldDue, now, anchorDay).dueDate;
}

/** renewedDueDate() and the billing day that follows it: today's day when renewed late. */
export function renewal(oldDue: number | null, now: number, anchorDay?: number): { dueDate: number; anchorDay: number } {
  if (oldDue === null || startOfDay(now) > startOfDay(oldDue)) {
    return { dueDate: addPeriod(now, dayOfMonth(now)), anchorDay: dayOfMonth(now) };
  }
  const anchor = anchorDay ?? dayOfMonth(oldDue);
  return { dueDate: addPeriod(oldDue, anchor), anchorDay: anchor };
}

/** What decides a company's next invoice. */
export type InvoiceSubject = { dueDate: number | null; planId: number | null };

/**
 * When the invoice of the company's current period is to be issued: INVOICE_LEAD_DAYS before
 * its due day (at once if that is past), or null when there is nothing to issue: no due date
 * (the platform's own company, an unlimited one), no plan to price it, or that period's invoice
 * already exists (the next one waits for the due date to move, by a payment or the super user).
 */
export function nextInvoiceAt(
  company: InvoiceSubject,
  now: number,
  issuedPeriods: ReadonlySet<string> = new Set(),
): number | null {
  if (company.dueDate === null || company.planId === null) return null;
  if (issuedPeriods.has(periodOf(company.dueDate))) return null;
  return Math.max(now, startOfDay(company.dueDate) - INVOICE_LEAD_DAYS * DAY_MS);
}

/** The detail line of a period's invoice. */
export function invoiceDetail(planName: string, period: string): string {
  return `Plano ${planName} - ${period}`;
}

/** GET /invoices/all query: search, page, and (super only) one company. */
export const InvoiceQuery = SearchPage.extend({
  companyId: z.coerce.number().int().positive().optional(),
});
export type InvoiceQuery = z.infer<typeof InvoiceQuery>;

/** POST /invoices/{id}/pay body: why the super user marks it paid by hand. */
export const ManualPayInput = z.object({
  reason: sized(3, 500),
});
export type ManualPayInput = z.infer<typeof ManualPayInput>;

/** Newest due date first, then newest id (the list's order). */
export function newestDueFirst(a: Invoice, b: Invoice): number {
  return b.dueDate - a.dueDate || b.id - a.id;
}
