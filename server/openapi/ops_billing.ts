/**
 * Operations of billing (spec 001 §2.20–2.21, §7; issue #21): invoices and the payment
 * history (CORE), then the checkout and the providers' payment webhooks (PAY adds them below).
 * The reads stay open to an expired company's billing-only token.
 */
import { z } from "zod";
import { Invoice, InvoiceQuery, ManualPayInput } from "../../domain/invoice.ts";
import { area, type Operation } from "./operation.ts";
import { pageOf } from "./shapes.ts";

const invoices = area("Invoices");
const access = "financeiro:view (admin and supervisor, also with a billing-only token; the super user reads every company's)";
const iso = z.string().describe("ISO 8601");

/** An invoice as the API answers it (domain/invoice.ts invoiceJson): dates as ISO text. */
const InvoiceView = Invoice.extend({
  dueDate: iso.describe("UTC start of the due day"),
  paidAt: iso.nullable(),
  createdAt: iso,
  updatedAt: iso,
  companyName: z.string().optional().describe("Super user's list only: the invoice's company"),
});
const PaymentRows = z.array(z.object({
  id: z.number(),
  invoice: z.number().describe("The invoice id"),
  detail: z.string(),
  value: z.number(),
  paidAt: iso,
}));

/** The invoice and payment-history endpoints. */
export const BILLING_OPERATIONS: Operation[] = [
  invoices.get("/invoices/all", "Invoices, newest due date first, searched by detail or period, 20 a page", {
    query: { InvoiceQuery },
    response: { InvoicePage: pageOf("invoices", InvoiceView) },
    access,
  }),
  invoices.get("/invoices/:id", "One invoice of the company (any company's for the super user)", {
    response: { InvoiceView },
    access,
    errors: ["ERR_NO_INVOICE_FOUND"],
  }),
  invoices.post("/invoices/:id/pay", "Mark an invoice paid by hand (audited with the reason); renews the company like a payment", {
    body: { ManualPayInput },
    response: { InvoiceView },
    example: { reason: "Pix recebido fora da plataforma" },
    access: "super",
    errors: ["ERR_NO_INVOICE_FOUND", "ERR_CONFLICT"],
  }),
  invoices.get("/payments", "The company's payments, newest first", { response: { PaymentRows }, access }),
];
