/**
 * The demo's payment provider: a charge is a page on our own server
 * (`/simulator/payments/{chargeId}`, server/api/payment_simulator.ts) whose button posts this
 * provider's webhook, so a person trying the demo can pay without any real provider. Offered
 * only to the demo company of a store the demo seeded (ctx.demoCompanyId): paying is free, so
 * any other company could renew its licence with it. The page's link is our public URL when
 * one is configured, else a path on the origin the checkout runs on (never the Host header
 * the caller sent). Its webhooks are signed like the
 * others: `x-simulator-signature` = hex HMAC-SHA256 of the body, keyed by a key derived from
 * the server's secret, so nobody outside the server can forge one.
 */
import { hmacHex, jsonBody, pick, pickString, sameSecret } from "./http.ts";
import { type PaymentProvider, ProviderError } from "./types.ts";

export const SIMULATOR_SIGNATURE_HEADER = "x-simulator-signature";

/** The body and signature of a "paid" delivery for `chargeId`. */
export async function simulatorDelivery(key: string, charge: { chargeId: string; amount: number }) {
  const body = JSON.stringify({ id: `simevt-${crypto.randomUUID()}`, type: "payment.paid", chargeId: charge.chargeId, amount: charge.amount });
  return { body, signature: await hmacHex(key, body) };
}

/** The start of every simulator charge id of company `companyId`. */
function chargePrefix(companyId: number): string {
  return `sim${companyId}x`;
}

export const simulator: PaymentProvider = {
  name: "simulator",
  kind: "link",
  configured: (ctx, companyId) => ctx.demoCompanyId !== null && ctx.demoCompanyId === companyId,

  createCharge(ctx, input) {
    if (ctx.demoCompanyId !== input.companyId) {
      return Promise.reject(new ProviderError("simulator", `company ${input.companyId} is not the demo company`));
    }
    const chargeId = `${chargePrefix(input.companyId)}${input.invoiceId}x${crypto.randomUUID().replace(/-/g, "").slice(0, 16)}`;
    return Promise.resolve({ chargeId, url: `${ctx.origin ?? ""}/simulator/payments/${chargeId}` });
  },

  async verifyWebhook(ctx, req) {
    if (ctx.demoCompanyId === null) return null;
    const expected = await hmacHex(ctx.simulatorKey, req.rawBody);
    if (!sameSecret(req.headers.get(SIMULATOR_SIGNATURE_HEADER) ?? "", expected)) return null;
    const body = jsonBody(req.rawBody);
    const eventId = pickString(body, "id");
    const chargeId = pickString(body, "chargeId");
    // Only the demo company's charges: the signature proves the server made the delivery,
    // this that the server made it for the one company the simulator may pay.
    if (!eventId || !chargeId?.startsWith(chargePrefix(ctx.demoCompanyId))) return null;
    const amount = pick(body, "amount");
    return [{
      eventId,
      chargeId,
      paid: pick(body, "type") === "payment.paid",
      amount: typeof amount === "number" ? amount : undefined,
    }];
  },
};
