/**
 * Asaas: the company's customer (`GET /v3/customers?externalReference=`, else `POST
 * /v3/customers`), then a charge (`POST /v3/payments`, billingType
 * UNDEFINED so the payer picks Pix, boleto or card on Asaas's page) whose `invoiceUrl` is the
 * link; `externalReference` carries our reference. Calls authenticate with the `access_token`
 * header. Asaas does not sign webhooks: it sends the token chosen when the webhook was set up
 * in the `asaas-access-token` header (setting `asaaswebhooktoken`); events PAYMENT_RECEIVED and
 * PAYMENT_CONFIRMED settle. Values are in reais.
 */
import { callProvider, jsonBody, pick, pickString, sameSecret } from "./http.ts";
import { type ChargeInput, type PaymentProvider, type ProviderContext, ProviderError } from "./types.ts";

const PAID_EVENTS = new Set(["PAYMENT_RECEIVED", "PAYMENT_CONFIRMED"]);
const DAY = 86_400_000;

/** YYYY-MM-DD of `ms` (UTC). */
function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * The company's Asaas customer: found by its externalReference (`company-{id}`) when an
 * earlier checkout created it, else created, so repeated checkouts do not pile up customers.
 */
async function customerOf(ctx: ProviderContext, headers: Record<string, string>, input: ChargeInput): Promise<string> {
  const reference = `company-${input.companyId}`;
  const found = await callProvider("asaas", `${ctx.urls.asaas}/v3/customers?externalReference=${encodeURIComponent(reference)}`, {
    headers,
    timeoutMs: ctx.timeoutMs,
  });
  const existing = pick(found, "data");
  const id = Array.isArray(existing) ? pickString(existing[0], "id") : undefined;
  if (id) return id;
  const customer = await callProvider("asaas", `${ctx.urls.asaas}/v3/customers`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      name: input.payer.name || input.companyName,
      email: input.payer.email || undefined,
      address: input.payer.address,
      postalCode: input.payer.zipcode.replace(/\D/g, ""),
      externalReference: reference,
      notificationDisabled: true,
    }),
    timeoutMs: ctx.timeoutMs,
  });
  const created = pickString(customer, "id");
  if (!created) throw new ProviderError("asaas", "the customer has no id");
  return created;
}

export const asaas: PaymentProvider = {
  name: "asaas",
  kind: "link",
  configured: (ctx) => (ctx.settings.asaastoken ?? "").trim() !== "",

  async createCharge(ctx, input) {
    const headers = {
      access_token: ctx.settings.asaastoken.trim(),
      "content-type": "application/json",
      "user-agent": "Balcao",
    };
    const customerId = await customerOf(ctx, headers, input);
    // Asaas refuses a due date in the past: an overdue invoice is charged for today.
    const today = Math.floor(Date.now() / DAY) * DAY;
    const payment = await callProvider("asaas", `${ctx.urls.asaas}/v3/payments`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        customer: customerId,
        billingType: "UNDEFINED",
        value: input.amount,
        dueDate: isoDay(Math.max(today, input.dueDate)),
        description: input.detail,
        externalReference: input.reference,
      }),
      timeoutMs: ctx.timeoutMs,
    });
    const id = pickString(payment, "id");
    const url = pickString(payment, "invoiceUrl");
    if (!id || !url) throw new ProviderError("asaas", "the payment has no id or invoiceUrl");
    return { chargeId: id, url };
  },

  verifyWebhook(ctx, req) {
    const token = (ctx.settings.asaaswebhooktoken ?? "").trim();
    if (!token || !sameSecret(req.headers.get("asaas-access-token") ?? "", token)) return Promise.resolve(null);
    const body = jsonBody(req.rawBody);
    const event = pickString(body, "event");
    const paymentId = pickString(body, "payment", "id");
    if (!body || !event || !paymentId) return Promise.resolve(null);
    const value = pick(body, "payment", "value");
    return Promise.resolve([{
      // Older deliveries carry no event id: the event name and payment make one.
      eventId: pickString(body, "id") ?? `${event}:${paymentId}`,
      chargeId: paymentId,
      reference: pickString(body, "payment", "externalReference"),
      paid: PAID_EVENTS.has(event),
      amount: typeof value === "number" ? value : undefined,
    }]);
  },
};
