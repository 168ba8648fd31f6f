/**
 * The demo's payment provider: a charge is a page on our own server
 * (`/simulator/payments/{chargeId}`, server/api/payment_simulator.ts) whose button posts this
 * provider's webhook, so a person trying the demo can pay without any real provider. Offered
 * only when the store holds the demo tenant (ctx.demo). Its webhooks are signed like the
 * others: `x-simulator-signature` = hex HMAC-SHA256 of the body, keyed by a key derived from
 * the server's secret, so nobody outside the server can forge one.
 */
import { hmacHex, jsonBody, pick, pickString, sameSecret } from "./http.ts";
import type { PaymentProvider } from "./types.ts";

export const SIMULATOR_SIGNATURE_HEADER = "x-simulator-signature";

/** The body and signature of a "paid" delivery for `chargeId`. */
export async function simulatorDelivery(key: string, charge: { chargeId: string; amount: number }) {
  const body = JSON.stringify({ id: `simevt-${crypto.randomUUID()}`, type: "payment.paid", chargeId: charge.chargeId, amount: charge.amount });
  return { body, signature: await hmacHex(key, body) };
}

export const simulator: PaymentProvider = {
  name: "simulator",
  kind: "link",
  configured: (ctx) => ctx.demo,

  createCharge(ctx, input) {
    const chargeId = `sim${input.companyId}x${input.invoiceId}x${crypto.randomUUID().replace(/-/g, "").slice(0, 16)}`;
    return Promise.resolve({ chargeId, url: `${ctx.origin}/simulator/payments/${chargeId}` });
  },

  async verifyWebhook(ctx, req) {
    if (!ctx.demo) return null;
    const expected = await hmacHex(ctx.simulatorKey, req.rawBody);
    if (!sameSecret(req.headers.get(SIMULATOR_SIGNATURE_HEADER) ?? "", expected)) return null;
    const body = jsonBody(req.rawBody);
    const eventId = pickString(body, "id");
    if (!eventId) return null;
    const amount = pick(body, "amount");
    return [{
      eventId,
      chargeId: pickString(body, "chargeId"),
      paid: pick(body, "type") === "payment.paid",
      amount: typeof amount === "number" ? amount : undefined,
    }];
  },
};
