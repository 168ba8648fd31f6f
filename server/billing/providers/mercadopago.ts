/**
 * Mercado Pago Checkout Pro: `POST /checkout/preferences` (unit_price in reais,
 * external_reference = our reference) answers `init_point`, the page to pay on. Its webhook
 * says only "payment {id} changed": the `x-signature: ts=…,v1=…` header is the hex
 * HMAC-SHA256, keyed by the application's secret (setting `mpwebhooksecret`), of the manifest
 * `id:{data.id};request-id:{x-request-id};ts:{ts};` (data.id from the query, lower-cased when
 * alphanumeric; a part whose value is absent is left out, as MP's docs say). A genuine
 * notification is then read back with `GET /v1/payments/{id}`: status "approved" settles, with
 * the payment's `external_reference` and `transaction_amount`.
 */
import { callProvider, headerParts, hmacHex, jsonBody, pick, pickString, sameSecret } from "./http.ts";
import { type PaymentProvider, ProviderError, publicBase } from "./types.ts";

/** The string MP signs for one notification. */
export function mercadoPagoManifest(dataId: string | undefined, requestId: string | undefined, ts: string): string {
  const id = dataId && /^[a-z0-9]+$/i.test(dataId) ? dataId.toLowerCase() : dataId;
  return (id ? `id:${id};` : "") + (requestId ? `request-id:${requestId};` : "") + `ts:${ts};`;
}

export const mercadopago: PaymentProvider = {
  name: "mercadopago",
  kind: "link",
  configured: (ctx) => (ctx.settings.mpaccesstoken ?? "").trim() !== "",

  async createCharge(ctx, input) {
    const origin = publicBase(ctx, "mercadopago");
    const preference = await callProvider("mercadopago", `${ctx.urls.mercadopago}/checkout/preferences`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${ctx.settings.mpaccesstoken.trim()}`,
        "content-type": "application/json",
        "x-idempotency-key": crypto.randomUUID(),
      },
      body: JSON.stringify({
        items: [{ id: `invoice-${input.invoiceId}`, title: input.detail, quantity: 1, unit_price: input.amount, currency_id: "BRL" }],
        payer: { name: input.payer.name, email: input.payer.email || undefined },
        external_reference: input.reference,
        notification_url: `${origin}/webhooks/payments/mercadopago`,
        back_urls: { success: `${origin}/financeiro`, pending: `${origin}/financeiro`, failure: `${origin}/financeiro` },
        auto_return: "approved",
      }),
      timeoutMs: ctx.timeoutMs,
    });
    const id = pickString(preference, "id");
    const url = pickString(preference, "init_point");
    if (!id || !url) throw new ProviderError("mercadopago", "the preference has no id or init_point");
    return { chargeId: id, url };
  },

  async verifyWebhook(ctx, req) {
    const secret = (ctx.settings.mpwebhooksecret ?? "").trim();
    const token = (ctx.settings.mpaccesstoken ?? "").trim();
    if (!secret || !token) return null;
    const body = jsonBody(req.rawBody);
    const dataId = req.query["data.id"] ?? pickString(body, "data", "id");
    const parts = headerParts(req.headers.get("x-signature"));
    const ts = parts.get("ts")?.[0] ?? "";
    const v1 = parts.get("v1")?.[0] ?? "";
    if (!ts || !v1) return null;
    const expected = await hmacHex(secret, mercadoPagoManifest(dataId, req.headers.get("x-request-id") ?? undefined, ts));
    if (!sameSecret(v1, expected)) return null;
    const type = req.query.type ?? pickString(body, "type");
    // Genuine, but not about a payment (merchant orders, tests): nothing to settle.
    if (type !== "payment" || !dataId) return [{ eventId: `notification:${pickString(body, "id") ?? ts}`, paid: false }];
    const payment = await callProvider("mercadopago", `${ctx.urls.mercadopago}/v1/payments/${encodeURIComponent(dataId)}`, {
      headers: { authorization: `Bearer ${token}` },
      timeoutMs: ctx.timeoutMs,
    });
    const amount = pick(payment, "transaction_amount");
    const inBrl = String(pick(payment, "currency_id") ?? "BRL").toUpperCase() === "BRL";
    return [{
      // One payment settles once, whichever of its notifications (created, updated) comes first.
      eventId: `payment:${dataId}`,
      chargeId: pickString(payment, "preference_id"),
      reference: pickString(payment, "external_reference"),
      paid: pick(payment, "status") === "approved",
      amount: typeof amount === "number" && inBrl ? amount : undefined,
    }];
  },
};
