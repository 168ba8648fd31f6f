/**
 * The checkout's Personalizar and Revisar contents (spec 001 §2.21): the plan card (name, R$
 * per month with 2 decimals, users, connections) and the subscription summary (invoice, due
 * date, plan, who is billed, total).
 */
import { Package, PlugZap, Users } from "lucide-react";
import { t } from "../lib/i18n.ts";
import { formatDueDate, formatPlanPrice } from "../subscription/summary.ts";
import type { InvoiceRow } from "./invoice_rows.ts";

/** The company's plan as the session carries it (GET /auth/me company.plan). */
export interface CheckoutPlanInfo {
  name: string;
  value: number;
  users: number;
  connections: number;
}

/** The plan card. */
export function PlanCard({ plan }: { plan: CheckoutPlanInfo | null }) {
  if (!plan) return <p className="field-hint">{t("checkout.noPlan")}</p>;
  return (
    <article className="card checkout-plan" data-testid="checkout-plan" aria-label={t("checkout.planTitle")}>
      <header className="checkout-plan-head">
        <Package size={20} aria-hidden="true" />
        <h3>{plan.name}</h3>
      </header>
      <p className="checkout-plan-price">{t("checkout.perMonth", { price: formatPlanPrice(plan.value) })}</p>
      <ul className="checkout-plan-facts">
        <li><Users size={16} aria-hidden="true" /> {t("checkout.users", { n: plan.users })}</li>
        <li><PlugZap size={16} aria-hidden="true" /> {t("checkout.connections", { n: plan.connections })}</li>
      </ul>
    </article>
  );
}

/** The summary of what PAGAR will charge. */
export function CheckoutSummary({ invoice, plan, billedTo }: { invoice: InvoiceRow; plan: CheckoutPlanInfo | null; billedTo: string }) {
  return (
    <section className="checkout-summary" aria-label={t("checkout.summaryTitle")} data-testid="checkout-summary">
      <h3>{t("checkout.summaryTitle")}</h3>
      <dl>
        <div><dt>{t("checkout.summaryInvoice")}</dt><dd>{invoice.detail}</dd></div>
        <div><dt>{t("checkout.summaryDue")}</dt><dd>{formatDueDate(invoice.dueDate)}</dd></div>
        {plan && <div><dt>{t("checkout.summaryPlan")}</dt><dd>{plan.name} · {t("checkout.perMonth", { price: formatPlanPrice(plan.value) })}</dd></div>}
        {billedTo && <div><dt>{t("checkout.summaryBilling")}</dt><dd>{billedTo}</dd></div>}
        <div className="checkout-summary-total"><dt>{t("checkout.summaryTotal")}</dt><dd>{formatPlanPrice(invoice.value)}</dd></div>
      </dl>
    </section>
  );
}
