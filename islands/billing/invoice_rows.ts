/**
 * Invoices and payments as the billing API answers them (JSON: dates as ISO strings) and how
 * /financeiro shows them: the display status of spec 001 §4 (domain/invoice.ts decides it, so
 * server and browser agree), money in R$ pt-BR, and which invoice the checkout pays.
 */
import { invoiceDisplayStatus } from "../../domain/invoice.ts";

/** An invoice row of GET /invoices/all (`companyName` only in the super user's list). */
export interface InvoiceRow {
  id: number;
  companyId: number;
  companyName?: string;
  detail: string;
  value: number;
  /** ISO, UTC start of the due day. */
  dueDate: string;
  period: string;
  status: "open" | "paid";
  paidAt: string | null;
  paidVia: string | null;
}

/** GET /invoices/all body. */
export interface InvoicesResponse {
  invoices: InvoiceRow[];
  count: number;
  hasMore: boolean;
}

/** A row of GET /payments (the 'Faturas Pagas' table). */
export interface PaymentRow {
  id: number;
  /** The invoice's id. */
  invoice: number;
  detail?: string;
  value: number;
  paidAt: string;
}

/** Pago / Vencido / Em Aberto as a locale key suffix. */
export type DisplayStatus = "paid" | "overdue" | "open";

/** The row's display status at `now` (spec 001 §4). */
export function rowStatus(row: Pick<InvoiceRow, "status" | "dueDate">, now: number): DisplayStatus {
  return invoiceDisplayStatus({ status: row.status, dueDate: Date.parse(row.dueDate) }, now);
}

/** The invoice /subscription's button pays: the newest unpaid one (latest due date), or undefined. */
export function invoiceToPay(rows: readonly InvoiceRow[]): InvoiceRow | undefined {
  return rows.filter((r) => r.status !== "paid").sort((a, b) => Date.parse(b.dueDate) - Date.parse(a.dueDate))[0];
}
