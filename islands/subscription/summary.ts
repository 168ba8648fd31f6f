/**
 * What /subscription shows (spec 002 §2.9), decided from the company as GET /companies/{id}
 * answers it. Pure, so the server's render and the browser's agree.
 *
 * "During a trial": until the billing issue records payments, a company is on trial while its
 * due date is still the one sign-up gave it, i.e. at most the longest trial (7 days, 001 §9)
 * after the company was created. A company the platform owner created (one month by default)
 * or one whose due date a payment moved is not.
 */
import { can } from "../../domain/permissions.ts";

/** Who may read the subscription: whoever may read the company (its admins, super users). */
export function mayViewSubscription(who: { profile: "user" | "supervisor" | "admin"; super: boolean }): boolean {
  return who.super || can(who, "company:viewOwn");
}

/** The company fields the page reads. */
export interface SubscriptionCompany {
  id: number;
  name: string;
  email: string;
  dueDate: string | null;
  createdAt: string | null;
  plan: { name: string; value: number } | null;
}

/** The page's content. */
export interface SubscriptionSummary {
  trial: boolean;
  /** dd/MM/yyyy of the trial end or next charge, or null when the company is never due. */
  dueDate: string | null;
  billingEmail: string;
  plan: { name: string; value: string } | null;
}

const DAY = 86_400_000;
const BRL = new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL", minimumFractionDigits: 2 });

/** A plan's monthly price as the spec shows prices (001 §9: BRL, pt-BR, 2 decimals), e.g. R$ 199,90. */
export function formatPlanPrice(value: number): string {
  return BRL.format(value);
}
/** The longest trial (001 §9) plus a day of slack for the time of day. */
const TRIAL_SPAN_MS = 8 * DAY;

/** dd/MM/yyyy by calendar day in UTC, the day the subscription gate counts (domain/subscription.ts). */
export function formatDueDate(iso: string): string {
  const d = new Date(iso);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(d.getUTCDate())}/${two(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}`;
}

/** The summary of `company`. */
export function subscriptionSummary(company: SubscriptionCompany): SubscriptionSummary {
  const due = company.dueDate ? Date.parse(company.dueDate) : NaN;
  const created = company.createdAt ? Date.parse(company.createdAt) : NaN;
  return {
    trial: Number.isFinite(due) && Number.isFinite(created) && due - created <= TRIAL_SPAN_MS,
    dueDate: company.dueDate && Number.isFinite(due) ? formatDueDate(company.dueDate) : null,
    billingEmail: company.email,
    plan: company.plan ? { name: company.plan.name, value: formatPlanPrice(company.plan.value) } : null,
  };
}
