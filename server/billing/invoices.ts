/**
 * Invoice lookups and settlement (issue #21): what the invoice API, POST /subscription and the
 * payment webhooks share.
 *
 * A payment touches two actors: the company's invoices actor (the paid invoice and the
 * payment) and the platform companies collection (the due date). They cannot commit in one
 * atomic, so settlement is ordered to be safe to retry:
 *   1. the billing registry claims (provider, eventId) for this invoice: a replay of the event
 *      for another invoice or company finds the first claim and changes nothing;
 *   2. the invoices actor writes the payment, keyed by (provider, eventId), together with the
 *      paid invoice and the renewal it decided (`dueDateBefore` → `dueDateAfter`);
 *   3. the company's due date becomes `max(current, dueDateAfter)`, derived from the payment,
 *      which is then marked applied (the invoices actor's applyRenewal, after step 2's commit).
 * A crash after 2 leaves a paid invoice and an old due date; the provider redelivers the
 * event (they retry until answered 2xx), step 2 finds the payment already there and step 3
 * applies it then. Step 3 is idempotent: applying a payment twice moves the date once, and only
 * the call that marks it applied announces it (the live event and the audit row), so two
 * concurrent deliveries announce once and a healed retry announces what the crash lost.
 */
import { companies, PLATFORM } from "../../actors/platform/collections.ts";
import {
  billingRegistry,
  chargeKey,
  invoiceCompanyKey,
  invoiceMissing,
  invoicesOf,
  getInvoice,
  syncInvoices,
} from "../../actors/invoices/mod.ts";
import type { Company } from "../../domain/company.ts";
import { companyChannel } from "../../domain/events.ts";
import { type Invoice, invoiceJson, type Payment } from "../../domain/invoice.ts";
import { isoDate } from "../../domain/iso_date.ts";
import type { Principal } from "../../domain/permissions.ts";
import { recordAudit } from "../audit/record.ts";
import type { AppDeps } from "../deps.ts";
import { log } from "../../actors/_runtime/log.ts";

/**
 * Invoice `id` of `companyId`; with a null company (the super user) of any company. Throws the
 * 404 ERR_NO_INVOICE_FOUND otherwise, so another company's invoice looks like none.
 */
export async function invoiceOf(deps: AppDeps, companyId: number | null, id: number): Promise<Invoice> {
  const owner = companyId ?? (await deps.kv.get<number>(invoiceCompanyKey(id))).value;
  const invoice = owner === null ? undefined : await getInvoice(deps.system, owner, id);
  if (!invoice) throw invoiceMissing(id);
  return invoice;
}

/** One provider's payment of an invoice, as a webhook (or the super user, "manual") reports it. */
export interface Settlement {
  invoiceId: number;
  companyId: number;
  provider: string;
  /** The provider's event (or payment) id: a second delivery of it changes nothing. */
  eventId: string;
  /** The amount paid, BRL. */
  value: number;
}

/** Who marked the invoice paid by hand, and why (POST /invoices/{id}/pay). */
export interface ManualMark {
  who: Principal;
  reason: string;
}

/**
 * Settles an invoice (module doc). `settled` is true when this call moved the company's due
 * date; `dueDate` is the company's due date afterwards. A repeated event, an invoice already
 * paid, a value below the invoice's or an event id first seen for another invoice settle
 * nothing (logged). Throws the 404 when the invoice is not the company's.
 */
export async function settleInvoice(
  deps: AppDeps,
  input: Settlement,
  manual?: ManualMark,
): Promise<{ settled: boolean; dueDate: number | null }> {
  const { system } = deps;
  const invoice = await invoiceOf(deps, input.companyId, input.invoiceId);
  const currentDue = async () => (await companies.in(system, PLATFORM).get(input.companyId))?.dueDate ?? null;
  const claim = await system.ref(billingRegistry, 0).ask("claim", {
    provider: input.provider,
    eventId: input.eventId,
    companyId: input.companyId,
    invoiceId: invoice.id,
  });
  if (claim.companyId !== input.companyId || claim.invoiceId !== invoice.id) {
    log.warn(
      `Payment event ${input.provider}:${input.eventId} for invoice ${invoice.id} of company ${input.companyId} ignored: ` +
        `it was first seen for invoice ${claim.invoiceId} of company ${claim.companyId}`,
    );
    return { settled: false, dueDate: await currentDue() };
  }
  const outcome = await invoicesOf(system, input.companyId).ask("settle", {
    invoiceId: invoice.id,
    provider: input.provider,
    eventId: input.eventId,
    value: input.value,
  });
  if (outcome.type === "refused") {
    log.warn(
      `Payment event ${input.provider}:${input.eventId} of ${input.value} for invoice ${invoice.id} ` +
        `(${outcome.invoice.value}) not settled: ${outcome.reason}`,
    );
    return { settled: false, dueDate: await currentDue() };
  }
  const { applied, company } = await invoicesOf(system, input.companyId).ask("applyRenewal", { paymentId: outcome.payment.id });
  if (applied && company) {
    await announce(deps, company, outcome.invoice, outcome.payment, manual);
    // The due date moved: the next period's invoice timer follows it.
    await syncInvoices(system, company.id);
  }
  return { settled: applied, dueDate: company?.dueDate ?? null };
}

/** The live `company-{id}-payment` CONCLUIDA event and the audit row of a renewal. */
async function announce(deps: AppDeps, company: Company, invoice: Invoice, payment: Payment, manual?: ManualMark) {
  deps.bus.publish({
    companyId: company.id,
    channel: companyChannel(company.id, "payment"),
    data: {
      action: "CONCLUIDA",
      company: { id: company.id, dueDate: isoDate(company.dueDate) },
      invoice: invoiceJson(invoice),
    },
    scope: { kind: "company" },
  });
  const target = { kind: "invoice", id: invoice.id, name: invoice.detail } as const;
  const detail = {
    provider: payment.provider,
    eventId: payment.eventId,
    value: payment.value,
    dueDate: isoDate(company.dueDate),
    ...(manual ? { reason: manual.reason } : {}),
  };
  await recordAudit(deps, manual?.who ?? null, "invoice.pay", target, detail, { companyId: company.id });
  // The super user's own log names it too, as company changes do.
  if (manual && manual.who.companyId !== company.id) await recordAudit(deps, manual.who, "invoice.pay", target, detail);
}

/** Remembers that the provider's charge `chargeId` pays this invoice (see chargeOf). */
export async function rememberCharge(
  deps: AppDeps,
  input: { invoiceId: number; companyId: number; provider: string; chargeId: string },
): Promise<void> {
  await invoicesOf(deps.system, input.companyId).ask("rememberCharge", {
    invoiceId: input.invoiceId,
    provider: input.provider,
    chargeId: input.chargeId,
  });
}

/** The invoice a provider's charge id pays, for webhooks that carry only that id; null if unknown. */
export async function chargeOf(
  deps: AppDeps,
  provider: string,
  chargeId: string,
): Promise<{ invoiceId: number; companyId: number } | null> {
  return (await deps.kv.get<{ invoiceId: number; companyId: number }>(chargeKey(provider, chargeId))).value;
}
