/**
 * The invoices and payments of one company (id = company id), in memory and one KV key each.
 *
 * Issuing: one durable timer (`issue`) armed for the current period's invoice, INVOICE_LEAD_DAYS
 * before the due date (domain/invoice.ts nextInvoiceAt). `sync` re-reads the company and plan
 * and re-arms it; the host calls it when a company is created or changed and at start-up. An
 * invoice is keyed by its period in the state, so a timer delivered twice, a sync racing the
 * timer or a restart never issues one period twice: every path goes through this mailbox and
 * checks `byPeriod` first.
 *
 * Settling: `settle` records the payment (keyed by provider and event id) and the renewal it
 * decides (`dueDateBefore` → `dueDateAfter`) in one commit with the paid invoice; then
 * `applyRenewal` moves the company's due date (the platform collection's write, made durable
 * first) and marks the payment applied. Two messages, so the payment is durable before the due
 * date moves: a crash between them leaves an unapplied payment that the provider's redelivery
 * (server/billing/invoices.ts) applies.
 *
 * Renewals keep the company's billing day (`anchorDay`) through short months; `knownDue` is the
 * due date this actor last saw or decided, so a due date changed by the super user (which
 * differs from it) resets the billing day to the new date's day.
 */
import { defineActor } from "../_runtime/actor.ts";
import type { ActorContext } from "../_runtime/actor.ts";
import { getCompany, getPlan } from "../platform/lookup.ts";
import { companies, PLATFORM } from "../platform/collections.ts";
import type { Company } from "../../domain/company.ts";
import { notFound } from "../../domain/errors.ts";
import {
  cents,
  dayOfMonth,
  Invoice,
  invoiceDetail,
  nextInvoiceAt,
  Payment,
  paymentEventKey,
  periodOf,
  renewal,
  startOfDay,
} from "../../domain/invoice.ts";
import { billingRegistry } from "./registry.ts";
import { chargeKey, invoiceCompanyKey, invoiceKey, invoiceMetaKey, paymentCounterKey, paymentKey } from "./keys.ts";
import { log } from "../_runtime/log.ts";

interface RenewalMemo {
  anchorDay: number | null;
  knownDue: number | null;
}

export interface InvoicesState extends RenewalMemo {
  companyId: number;
  invoices: Map<number, Invoice>;
  /** Period → invoice id: at most one invoice per period. */
  byPeriod: Map<string, number>;
  payments: Map<number, Payment>;
  /** paymentEventKey(provider, eventId) → payment id. */
  byEvent: Map<string, number>;
  paymentCounter: number;
}

type Ctx = ActorContext<InvoicesState>;

const ISSUE_TIMER = "issue";

export const invoiceMissing = (id: number | string) => notFound("ERR_NO_INVOICE_FOUND", `Invoice ${id} not found`);

/** What `settle` decided. */
export type SettleOutcome =
  /** A new payment: the invoice is now paid (the caller applies its renewal). */
  | { type: "paid"; payment: Payment; invoice: Invoice }
  /** This event was recorded before: its payment (the caller applies its renewal if not yet). */
  | { type: "seen"; payment: Payment; invoice: Invoice }
  /** Nothing recorded: the invoice was paid by another event, or the value is short. */
  | { type: "refused"; reason: "already-paid" | "underpaid"; invoice: Invoice };

function writeMemo(ctx: Ctx, memo: RenewalMemo): void {
  ctx.state.anchorDay = memo.anchorDay;
  ctx.state.knownDue = memo.knownDue;
  ctx.set(invoiceMetaKey(ctx.state.companyId), memo);
}

function putInvoice(ctx: Ctx, invoice: Invoice): void {
  ctx.state.invoices.set(invoice.id, invoice);
  ctx.state.byPeriod.set(invoice.period, invoice.id);
  ctx.set(invoiceKey(invoice.companyId, invoice.id), invoice);
}

/**
 * Brings the memo and the `issue` timer in line with the company as stored now; issues the
 * period's invoice at once when it is due (so a company created late has it on the reply).
 */
async function plan(ctx: Ctx): Promise<Invoice | null> {
  const company = await getCompany(ctx.system, ctx.state.companyId);
  if (!company) {
    if (ctx.timerDue(ISSUE_TIMER) !== undefined) ctx.cancelTimer(ISSUE_TIMER);
    return null;
  }
  if (company.dueDate !== ctx.state.knownDue) {
    writeMemo(ctx, {
      anchorDay: company.dueDate === null ? null : dayOfMonth(company.dueDate),
      knownDue: company.dueDate,
    });
  }
  const at = nextInvoiceAt(company, ctx.now, new Set(ctx.state.byPeriod.keys()));
  if (at === null) {
    if (ctx.timerDue(ISSUE_TIMER) !== undefined) ctx.cancelTimer(ISSUE_TIMER);
    return null;
  }
  if (at > ctx.now || company.dueDate === null) {
    if (ctx.timerDue(ISSUE_TIMER) !== at) ctx.setTimer(ISSUE_TIMER, at, "issue");
    return null;
  }
  if (ctx.timerDue(ISSUE_TIMER) !== undefined) ctx.cancelTimer(ISSUE_TIMER);
  const plan = await getPlan(ctx.system, company.planId);
  if (!plan) {
    // Waits for the super user to give the company a plan (PUT /companies syncs again).
    log.warn(`Company ${company.id}: plan ${company.planId} not found, no invoice issued`);
    return null;
  }
  const period = periodOf(company.dueDate);
  const id = await ctx.system.ref(billingRegistry, 0).ask("nextInvoiceId", undefined);
  const invoice: Invoice = {
    id,
    companyId: company.id,
    detail: invoiceDetail(plan.name, period),
    value: cents(plan.value),
    dueDate: startOfDay(company.dueDate),
    period,
    status: "open",
    paidAt: null,
    paidVia: null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
  putInvoice(ctx, invoice);
  ctx.set(invoiceCompanyKey(id), company.id);
  return invoice;
}

export const invoicesActor = defineActor({
  kind: "invoices",
  async load(kv, id): Promise<InvoicesState> {
    const companyId = Number(id);
    const [invoices, payments, meta, counter] = await Promise.all([
      Array.fromAsync(kv.list({ prefix: ["invoice", companyId] }), (e) => Invoice.parse(e.value)),
      Array.fromAsync(kv.list({ prefix: ["payment", companyId] }), (e) => Payment.parse(e.value)),
      kv.get<RenewalMemo>(invoiceMetaKey(companyId)),
      kv.get<number>(paymentCounterKey(companyId)),
    ]);
    return {
      companyId,
      invoices: new Map(invoices.map((i) => [i.id, i])),
      byPeriod: new Map(invoices.map((i) => [i.period, i.id])),
      payments: new Map(payments.map((p) => [p.id, p])),
      byEvent: new Map(payments.map((p) => [paymentEventKey(p.provider, p.eventId), p.id])),
      paymentCounter: Math.max(counter.value ?? 0, 0, ...payments.map((p) => p.id)),
      anchorDay: meta.value?.anchorDay ?? null,
      knownDue: meta.value?.knownDue ?? null,
    };
  },
  handlers: {
    /** Re-reads the company: re-arms the issue timer, issues a due invoice. Replies with it, if any. */
    sync(ctx): Promise<Invoice | null> {
      return plan(ctx);
    },

    /** Timer: the current period's invoice is due to be issued (re-checked: the company may have changed). */
    async issue(ctx): Promise<void> {
      await plan(ctx);
    },

    /** Records a provider's payment of invoice `invoiceId` (module doc); see SettleOutcome. */
    async settle(
      ctx,
      arg: { invoiceId: number; provider: string; eventId: string; value: number },
    ): Promise<SettleOutcome> {
      const invoice = ctx.state.invoices.get(arg.invoiceId);
      if (!invoice) throw invoiceMissing(arg.invoiceId);
      const seen = ctx.state.byEvent.get(paymentEventKey(arg.provider, arg.eventId));
      if (seen !== undefined) return { type: "seen", payment: ctx.state.payments.get(seen)!, invoice };
      if (invoice.status === "paid") return { type: "refused", reason: "already-paid", invoice };
      if (cents(arg.value) < invoice.value) return { type: "refused", reason: "underpaid", invoice };
      const company = await getCompany(ctx.system, ctx.state.companyId);
      const before = company?.dueDate ?? null;
      const next = renewal(before, ctx.now, ctx.state.anchorDay ?? undefined);
      const payment: Payment = {
        id: ++ctx.state.paymentCounter,
        invoiceId: invoice.id,
        companyId: invoice.companyId,
        value: cents(arg.value),
        paidAt: ctx.now,
        provider: arg.provider,
        eventId: arg.eventId,
        dueDateBefore: before,
        dueDateAfter: next.dueDate,
        applied: false,
      };
      ctx.set(paymentCounterKey(invoice.companyId), payment.id);
      ctx.state.payments.set(payment.id, payment);
      ctx.state.byEvent.set(paymentEventKey(payment.provider, payment.eventId), payment.id);
      ctx.set(paymentKey(invoice.companyId, payment.id), payment);
      const paid: Invoice = { ...invoice, status: "paid", paidAt: ctx.now, paidVia: arg.provider, updatedAt: ctx.now };
      putInvoice(ctx, paid);
      writeMemo(ctx, { anchorDay: next.anchorDay, knownDue: next.dueDate });
      return { type: "paid", payment, invoice: paid };
    },

    /**
     * Moves the company's due date to `max(current, dueDateAfter)` of payment `paymentId`, then
     * marks the payment applied. Replies `applied: true` only for the call that marked it, so of
     * two concurrent deliveries of one event exactly one announces the renewal. A crash between
     * the company's write and this mark is healed by the next call (the max makes the repeat a
     * no-op for the company).
     */
    async applyRenewal(ctx, arg: { paymentId: number }): Promise<{ applied: boolean; company: Company | undefined }> {
      const payment = ctx.state.payments.get(arg.paymentId);
      if (!payment) throw new Error(`Payment ${arg.paymentId} of company ${ctx.state.companyId} not found`);
      if (payment.applied) return { applied: false, company: await getCompany(ctx.system, ctx.state.companyId) };
      const company = await companies.in(ctx.system, PLATFORM).transact((view) => {
        const current = view.records.get(payment.companyId);
        if (!current || (current.dueDate !== null && current.dueDate >= payment.dueDateAfter)) return { reply: current };
        const moved = { ...current, dueDate: payment.dueDateAfter, updatedAt: view.now };
        return { put: [moved], reply: moved };
      });
      const done: Payment = { ...payment, applied: true };
      ctx.state.payments.set(done.id, done);
      ctx.set(paymentKey(done.companyId, done.id), done);
      return { applied: true, company };
    },

    /** Remembers that the provider's `chargeId` pays invoice `invoiceId` of this company. */
    rememberCharge(ctx, arg: { invoiceId: number; provider: string; chargeId: string }): void {
      if (!ctx.state.invoices.has(arg.invoiceId)) throw invoiceMissing(arg.invoiceId);
      ctx.set(chargeKey(arg.provider, arg.chargeId), { invoiceId: arg.invoiceId, companyId: ctx.state.companyId });
    },
  },
});
