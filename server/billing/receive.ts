/**
 * What a payment webhook does once its route has read the raw body (issue #21): the named
 * provider verifies the delivery (null: refused, 401); every paid event it reports is matched
 * to its invoice and settled. The invoice comes from the charge id we remembered at checkout
 * (chargeOf) or from the `${companyId}:${invoiceId}` reference the provider echoes; when both
 * are present they must agree, and settleInvoice itself refuses an invoice that is not that
 * company's, a repeated event id and a value below the invoice's. A verified delivery is
 * answered 200 even when it changes nothing, so the provider stops retrying.
 */
import { AppError } from "../../domain/errors.ts";
import type { AppDeps } from "../deps.ts";
import { chargeOf, settleInvoice } from "./invoices.ts";
import { type ProviderContext, ProviderError, type WebhookEvent, type WebhookRequest, parseReference, type PaymentProvider } from "./providers/types.ts";
import { log } from "../../actors/_runtime/log.ts";

/** The outcome of one delivery: how many events it carried and how many renewed a licence. */
export interface Received {
  events: number;
  settled: number;
}

/** The invoice an event pays, or null (logged) when it names none consistently. */
async function targetOf(deps: AppDeps, provider: PaymentProvider, event: WebhookEvent) {
  const byCharge = event.chargeId ? await chargeOf(deps, provider.name, event.chargeId) : null;
  const byReference = parseReference(event.reference);
  if (byCharge && byReference && (byCharge.companyId !== byReference.companyId || byCharge.invoiceId !== byReference.invoiceId)) {
    log.warn(`Payment event ${provider.name}:${event.eventId} ignored: charge ${event.chargeId} and reference ${event.reference} disagree`);
    return null;
  }
  const target = byCharge ?? byReference;
  if (!target) log.warn(`Payment event ${provider.name}:${event.eventId} ignored: no known charge or reference`);
  return target;
}

/** Verifies and settles one delivery; throws the 401 of a refused one. */
export async function receivePayment(deps: AppDeps, ctx: ProviderContext, provider: PaymentProvider, req: WebhookRequest): Promise<Received> {
  let events: WebhookEvent[] | null;
  try {
    events = await provider.verifyWebhook(ctx, req);
  } catch (error) {
    // Genuine but unreadable now (Mercado Pago's payment read failed): a 502 makes it retry.
    if (error instanceof ProviderError) throw new AppError("ERR_INTEGRATION_FAILED", { status: 502, message: error.message });
    throw error;
  }
  if (events === null) throw new AppError("ERR_NO_PERMISSION", { status: 401, message: `Webhook of ${provider.name} refused: bad or missing signature` });
  let settled = 0;
  for (const event of events) {
    if (!event.paid) continue;
    const target = await targetOf(deps, provider, event);
    if (!target) continue;
    if (event.amount === undefined || !Number.isFinite(event.amount)) {
      log.warn(`Payment event ${provider.name}:${event.eventId} ignored: it states no amount in reais`);
      continue;
    }
    try {
      const outcome = await settleInvoice(deps, { ...target, provider: provider.name, eventId: event.eventId, value: event.amount });
      if (outcome.settled) settled++;
    } catch (error) {
      if (!(error instanceof AppError) || error.status !== 404) throw error;
      log.warn(`Payment event ${provider.name}:${event.eventId} ignored: invoice ${target.invoiceId} is not company ${target.companyId}'s`);
    }
  }
  return { events: events.length, settled };
}
