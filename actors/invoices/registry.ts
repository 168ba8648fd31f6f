/**
 * The platform-wide billing registry (one actor, id 0): allocates invoice ids and claims
 * providers' event ids. A provider's event id is unique across companies, so the check that it
 * was not seen before cannot live in one company's invoices actor: a replayed event carrying
 * another company's invoice must find the first claim. Claims are read from KV on a miss and
 * remembered while the actor is live (one mailbox: no two claims of one event race).
 */
import { defineActor } from "../_runtime/actor.ts";
import { invoiceCounterKey, paymentClaimKey } from "./keys.ts";

/** The invoice an event id was first seen for. */
export interface PaymentClaim {
  companyId: number;
  invoiceId: number;
}

interface RegistryState {
  counter: number;
  claims: Map<string, PaymentClaim>;
}

export const billingRegistry = defineActor({
  kind: "billing_registry",
  async load(kv): Promise<RegistryState> {
    return { counter: (await kv.get<number>(invoiceCounterKey)).value ?? 0, claims: new Map() };
  },
  handlers: {
    /** The next unused invoice id. */
    nextInvoiceId(ctx): number {
      const id = ++ctx.state.counter;
      ctx.set(invoiceCounterKey, id);
      return id;
    },

    /** Claims (provider, eventId) for an invoice; replies with the first claim ever made. */
    async claim(ctx, arg: { provider: string; eventId: string } & PaymentClaim): Promise<PaymentClaim> {
      const key = paymentClaimKey(arg.provider, arg.eventId);
      const memo = JSON.stringify(key);
      const known = ctx.state.claims.get(memo) ?? (await ctx.kv.get<PaymentClaim>(key)).value;
      if (known) {
        ctx.state.claims.set(memo, known);
        return known;
      }
      const claim = { companyId: arg.companyId, invoiceId: arg.invoiceId };
      ctx.state.claims.set(memo, claim);
      ctx.set(key, claim);
      return claim;
    },
  },
});
