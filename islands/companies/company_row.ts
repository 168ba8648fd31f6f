/**
 * The companies screen's data (spec 001 §2.6): a row as GET /companies/ answers it, the
 * form's values made from a row, and the body the form sends. Due dates travel as ISO text
 * and are shown and edited by their UTC calendar day, so server and browser (whatever their
 * time zones) draw the same date and a saved day comes back as that day.
 */

import { type Billing, NO_BILLING } from "../../domain/company.ts";

/** A plan as GET /plans/all answers it (the fields the companies screens use). */
export interface PlanRef {
  id: number;
  name: string;
  users: number;
  connections: number;
  value: number;
}

/** A company row as GET /companies/ answers it. */
export interface CompanyRow extends Billing {
  id: number;
  name: string;
  email: string;
  phone: string;
  indicator: string;
  planId: number | null;
  plan: { id: number; name: string } | null;
  status: boolean;
  dueDate: string | null;
  recurrence: string;
  /** The process that runs it, in a cluster (issue #35); null for a process alone. */
  node?: string | null;
  /** Only in GET /companies/{id}: the company's settings (campaignsEnabled among them). */
  settings?: { key: string; value: string }[];
}

/** GET /companies/ body. */
export interface CompaniesResponse {
  companies: CompanyRow[];
  count: number;
  hasMore: boolean;
}

/** The company form's values (CompanyInput's fields; dueDate as the date input's YYYY-MM-DD). */
export interface CompanyValues extends Billing, Record<string, unknown> {
  name: string;
  email: string;
  phone: string;
  planId: number | null;
  status: boolean;
  dueDate: string;
  recurrence: "MENSAL";
  campaignsEnabled: boolean;
  indicator: string;
}

/** The API paths of the screen's first data (the route reads them on the server). */
export const COMPANIES_PATHS = { page: "/companies/?pageNumber=1", plans: "/plans/all" } as const;

/** YYYY-MM-DD one month after `now` (spec 001 §9: a new company's default due date). */
export function monthFromNow(now = Date.now()): string {
  const d = new Date(now);
  d.setUTCMonth(d.getUTCMonth() + 1);
  return d.toISOString().slice(0, 10);
}

/** The date input's value of an ISO due date ("" for none). */
export function dateInputValue(iso: string | null | undefined): string {
  return iso ? iso.slice(0, 10) : "";
}

/** dd/MM/yyyy of an ISO due date's UTC day ("" for none). */
export function dueText(iso: string | null | undefined): string {
  const day = dateInputValue(iso);
  return day ? day.split("-").reverse().join("/") : "";
}

/** The values of an empty form: active, monthly, campaigns on, due one month from now. */
export function newCompanyValues(now = Date.now()): CompanyValues {
  return {
    name: "",
    email: "",
    phone: "",
    planId: null,
    status: true,
    dueDate: monthFromNow(now),
    recurrence: "MENSAL",
    campaignsEnabled: true,
    indicator: "",
    ...NO_BILLING,
  };
}

/** The form's values of a company (its detail read: campaignsEnabled is a setting). */
export function companyValues(company: CompanyRow): CompanyValues {
  const campaigns = company.settings?.find((s) => s.key === "campaignsEnabled")?.value;
  return {
    name: company.name,
    email: company.email,
    phone: company.phone,
    planId: company.planId,
    status: company.status,
    dueDate: dateInputValue(company.dueDate),
    recurrence: "MENSAL",
    campaignsEnabled: campaigns === undefined ? true : campaigns === "true",
    indicator: company.indicator,
    ...billingOf(company),
  };
}

/** The billing fields of `company` (an old record may lack some: they read as empty). */
function billingOf(company: Partial<Billing>): Billing {
  const out = { ...NO_BILLING };
  for (const key of Object.keys(NO_BILLING) as (keyof Billing)[]) out[key] = company[key] ?? "";
  return out;
}

/** The body of POST /companies or PUT /companies/{id}: an empty due date is sent as null (§5). */
export function companyBody(values: CompanyValues): Record<string, unknown> {
  return { ...values, dueDate: values.dueDate || null };
}
