/**
 * Stripe Checkout: `POST /v1/checkout/sessions` (form-encoded, amounts in centavos) answers a
 * hosted page's `url`; the webhook `checkout.session.completed` (or
 * `checkout.session.async_payment_succeeded`) with `payment_status: "paid"` settles. Stripe
 * signs each delivery: `Stripe-Signature: t=<unix s>,v1=<hex HMAC-SHA256(secret, "t.body")>`,
 * keyed by the endpoint's signing secret (setting `stripewebhooksecret`); a timestamp more than
 * 5 minutes off is refused as a replay, as Stripe's libraries do.
 */
import { callProvider, headerParts, hmacHex, jsonBody, pick, pickString, sameSecret } from "./http.ts";
import { type PaymentProvider, ProviderError, publicBase, type WebhookEvent } from "./types.ts";

/** Stripe's default tolerance for the signature's timestamp. */
export const STRIPE_TOLERANCE_S = 300;

const PAID_EVENTS = new Set(["checkout.session.completed", "checkout.session.async_payment_succeeded"]);

/** The form body of a Checkout Session (Stripe's bracketed keys). */
export function stripeSessionForm(input: { detail: string; amount: number; email: string; reference: string; invoiceId: number; companyId: number; successUrl: string; cancelUrl: string }): URLSearchParams {
  return new URLSearchParams({
    mode: "payment",
    success_url: input.successUrl,
    cancel_url: input.cancelUrl,
    client_reference_id: input.reference,
    "line_items[0][quantity]": "1",
    "line_items[0][price_data][currency]": "brl",
    "line_items[0][price_data][unit_amount]": String(Math.round(input.amount * 100)),
    "line_items[0][price_data][product_data][name]": input.detail,
    "metadata[reference]": input.reference,
    "metadata[invoiceId]": String(input.invoiceId),
    "metadata[companyId]": String(input.companyId),
    ...(input.email ? { customer_email: input.email } : {}),
  });
}

export const stripe: PaymentProvider = {
  name: "stripe",
  kind: "link",
  configured: (ctx) => (ctx.settings.stripeprivatekey ?? "").trim() !== "",

  async createCharge(ctx, input) {
    const origin = publicBase(ctx, "stripe");
    const form = stripeSessionForm({
      detail: input.detail,
      amount: input.amount,
      email: input.payer.email,
      reference: input.reference,
      invoiceId: input.invoiceId,
      companyId: input.companyId,
      successUrl: `${origin}/financeiro`,
      cancelUrl: `${origin}/financeiro`,
    });
    const session = await callProvider("stripe", `${ctx.urls.stripe}/v1/checkout/sessions`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${ctx.settings.stripeprivatekey.trim()}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: form.toString(),
      timeoutMs: ctx.timeoutMs,
    });
    const id = pickString(session, "id");
    const url = pickString(session, "url");
    if (!id || !url) throw new ProviderError("stripe", "the session has no id or url");
    return { chargeId: id, url };
  },

  async verifyWebhook(ctx, req) {
    const secret = (ctx.settings.stripewebhooksecret ?? "").trim();
    if (!secret) return null;
    const parts = headerParts(req.headers.get("stripe-signature"));
    const t = parts.get("t")?.[0] ?? "";
    if (!/^\d{1,12}$/.test(t) || Math.abs(Date.now() / 1000 - Number(t)) > STRIPE_TOLERANCE_S) return null;
    const expected = await hmacHex(secret, `${t}.${req.rawBody}`);
    if (!(parts.get("v1") ?? []).some((v1) => sameSecret(v1, expected))) return null;
    const event = jsonBody(req.rawBody);
    const eventId = pickString(event, "id");
    if (!event || !eventId) return null;
    const session = pick(event, "data", "object");
    const total = pick(session, "amount_total");
    // An amount in another currency is no amount in reais (receive.ts then settles nothing).
    const inBrl = String(pick(session, "currency") ?? "brl").toLowerCase() === "brl";
    const found: WebhookEvent = {
      eventId,
      chargeId: pickString(session, "id"),
      reference: pickString(session, "client_reference_id") ?? pickString(session, "metadata", "reference"),
      paid: PAID_EVENTS.has(String(event.type)) && pick(session, "payment_status") === "paid",
      amount: typeof total === "number" && inBrl ? total / 100 : undefined,
    };
    return [found];
  },
};
