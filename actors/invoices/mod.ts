/** A company's invoices and payments (issue #21): what the host calls. */
import type { ActorSystem } from "../_runtime/system.ts";
import type { Invoice, Payment } from "../../domain/invoice.ts";
import { invoicesActor, type InvoicesState } from "./actor.ts";

export { invoiceMissing, invoicesActor, type InvoicesState, type SettleOutcome } from "./actor.ts";
export { billingRegistry, type PaymentClaim } from "./registry.ts";
export { chargeKey, invoiceCompanyKey } from "./keys.ts";

/** The company's invoices actor (to ask it). */
export function invoicesOf(system: ActorSystem, companyId: number) {
  return system.ref(invoicesActor, companyId);
}

/**
 * Re-arms the company's invoice timer after it was created or changed (due date, plan), and
 * issues the current period's invoice if it is already due. Replies with that invoice, if any.
 */
export function syncInvoices(system: ActorSystem, companyId: number): Promise<Invoice | null> {
  return invoicesOf(system, companyId).ask("sync", undefined);
}

async function stateOf(system: ActorSystem, companyId: number): Promise<InvoicesState> {
  return await invoicesOf(system, companyId).peek<InvoicesState>();
}

/** The company's invoices (in memory, no mailbox). */
export async function listInvoices(system: ActorSystem, companyId: number): Promise<Invoice[]> {
  return [...(await stateOf(system, companyId)).invoices.values()];
}

/** One invoice of the company, or undefined. */
export async function getInvoice(system: ActorSystem, companyId: number, id: number): Promise<Invoice | undefined> {
  return (await stateOf(system, companyId)).invoices.get(id);
}

/** The company's payments, newest first. */
export async function listPayments(system: ActorSystem, companyId: number): Promise<Payment[]> {
  return [...(await stateOf(system, companyId)).payments.values()].sort((a, b) => b.paidAt - a.paidAt || b.id - a.id);
}
