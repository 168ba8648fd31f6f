/**
 * KV keys of billing. Per company (purged with it, actors/tenancy/purge.ts): invoices,
 * payments and the renewal memo. Platform-wide: the invoice id counter (an invoice id is
 * unique across companies, so the super user's GET /invoices/{id} names one), the id → company
 * index, the providers' event claims and charge ids.
 */

export const invoiceKey = (companyId: number, id: number): Deno.KvKey => ["invoice", companyId, id];
export const paymentKey = (companyId: number, id: number): Deno.KvKey => ["payment", companyId, id];
/** `{ anchorDay, knownDue }` of the company's renewals (see actor.ts). */
export const invoiceMetaKey = (companyId: number): Deno.KvKey => ["invoice_meta", companyId];
export const paymentCounterKey = (companyId: number): Deno.KvKey => ["counter", "payment", companyId];

/** Last invoice id, platform-wide. */
export const invoiceCounterKey: Deno.KvKey = ["counter", "invoice", 0];
/** Invoice id → its company id. */
export const invoiceCompanyKey = (id: number): Deno.KvKey => ["invoice_company", id];
/** A provider's event id → the invoice it was first seen for. */
export const paymentClaimKey = (provider: string, eventId: string): Deno.KvKey => ["payment_claim", provider, eventId];
/** A provider's charge id (Stripe session, Asaas payment, Efí txid…) → its invoice. */
export const chargeKey = (provider: string, chargeId: string): Deno.KvKey => ["invoice_charge", provider, chargeId];
