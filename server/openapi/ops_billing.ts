/**
 * Operations of billing (spec 001 §2.20–2.21, §7; issue #21): invoices and the payment
 * history (CORE), then the checkout and the providers' payment webhooks (PAY adds them below).
 * The reads stay open to an expired company's billing-only token.
 */
import { z } from "zod";
import { SubscriptionPayload } from "../../domain/checkout.ts";
import { Invoice, InvoiceQuery, ManualPayInput } from "../../domain/invoice.ts";
import { PROVIDER_NAMES } from "../billing/providers/types.ts";
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

// ---- PAY: the checkout and the providers' payment webhooks ----

const paymentHooks = area("Payment webhooks", "signature");
const paymentSimulator = area("Simulator", "none");

/** POST /subscription's answer (server/api/subscription.ts). */
const SubscriptionResult = z.object({
  pix: z.object({
    qrcode: z.object({
      qrcode: z.string().describe("The Pix BR Code (copia e cola): EMV payload with the Pix GUI, key or PSP location, amount, txid and CRC16"),
      imagemQrcode: z.string().describe("The same code as a PNG QR image, data:image/png;base64,…"),
    }),
  }).nullable().describe("null when no Pix is configured (efichavepix) or the provider failed"),
  stripeURL: z.string().nullable(),
  asaasURL: z.string().nullable(),
  mercadopagoURL: z.string().nullable(),
  simulatorURL: z.string().nullable().describe("The demo's simulated provider page (only in the demo store)"),
  valorext: z.number().describe("The invoice's value, BRL"),
  invoiceId: z.number(),
});
const PaymentWebhookReply = z.object({
  received: z.number().describe("Events the delivery carried"),
  settled: z.number().describe("Events that renewed a licence (0 for a replay)"),
});
const verified = "Public: each provider's own proof is checked on the raw body instead of a token — Stripe's " +
  "`Stripe-Signature` (t, v1 = HMAC-SHA256 of `t.body` with `stripewebhooksecret`, 5 minutes' tolerance), Mercado Pago's " +
  "`x-signature` over `id:{data.id};request-id:{x-request-id};ts:{ts};` with `mpwebhooksecret` (the payment is then read back), " +
  "Asaas's `asaas-access-token` = `asaaswebhooktoken`, Efí's `?hmac=` = `efiwebhooksecret`, the simulator's server-keyed " +
  "`x-simulator-signature`. 401 when refused; 200 for every verified delivery, also a replay, which changes nothing. " +
  "A paid event settles its invoice (found by the remembered charge id or the echoed `companyId:invoiceId` reference) " +
  "unless the amount is below the invoice's, and the company's due date moves one period.";

/** The checkout and the providers' webhooks. */
export const PAYMENT_OPERATIONS: Operation[] = [
  invoices.post("/subscription", "Checkout: charge an open invoice through every configured payment provider", {
    body: { SubscriptionPayload },
    response: { SubscriptionResult },
    example: {
      firstName: "Maria Souza",
      address2: "Rua das Flores, 10",
      city: "Curitiba",
      state: "PR",
      zipcode: "80010-000",
      country: "BR",
      plan: JSON.stringify({ price: 199.9, users: 50, connections: 10 }),
      price: 199.9,
      users: 50,
      connections: 10,
      invoiceId: 1,
    },
    access: "financeiro:view (admin and supervisor, also with a billing-only token), the caller's company's invoice",
    errors: ["ERR_NO_INVOICE_FOUND", "ERR_CONFLICT"],
    description: "The amount is the invoice's value, not the body's `price`. Providers are asked in parallel, each with a " +
      "timeout; one that fails answers null for its part. Card fields are accepted and dropped: cards are typed on the " +
      "providers' own pages. 409 when the invoice is already paid.",
  }),
  paymentHooks.post("/webhooks/payments/:provider", `A payment provider's event (provider: ${PROVIDER_NAMES.join(", ")})`, {
    response: { PaymentWebhookReply },
    description: verified,
    errors: ["ERR_NO_PERMISSION", "ERR_NOT_FOUND", "ERR_INTEGRATION_FAILED"],
  }),
  paymentHooks.post("/webhooks/payments/efi/pix", "Efí's Pix notification (Efí appends /pix to the registered URL)", {
    response: { PaymentWebhookReply },
    description: "Same as `/webhooks/payments/efi`: `{ pix: [{ endToEndId, txid, valor, horario }] }`, `?hmac=` checked.",
    errors: ["ERR_NO_PERMISSION"],
  }),
  paymentSimulator.get("/simulator/payments/:chargeId", "The demo's simulated payment page for a charge", {
    response: "text/html",
    description: "Only in the demo store (404 elsewhere or for an unknown charge).",
    errors: ["ERR_NO_INVOICE_FOUND"],
  }),
  paymentSimulator.post("/simulator/payments/:chargeId/pay", "Pay a simulated charge (posts the simulator's signed webhook)", {
    response: "text/html",
    errors: ["ERR_NO_INVOICE_FOUND"],
  }),
];
