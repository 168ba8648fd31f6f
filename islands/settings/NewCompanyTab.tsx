/**
 * The Cadastrar Empresa tab of /settings (spec 001 §2.7, §5, §7): the platform owner signs up
 * a company and its admin (full name, company name, e-mail, password, phone, country —
 * default BR —, plan, referral code), checked with SignupInput, the server's own schema
 * ('Required', 'Too Short!', 'Too Long!', 'Invalid email'), and posted to
 * POST /companies/internal with recurrence MENSAL, the due date now plus the `trial` setting's
 * days, status and campaigns on. The server sets the same due date itself from the setting.
 */
import type { SettingsTabProps } from "../SettingsPage.tsx";
import { api } from "../lib/api.ts";
import { currentLang, t } from "../lib/i18n.ts";
import { showToast } from "../lib/toast.ts";
import { SelectField, TextField, useSchemaForm } from "../ui/form.tsx";
import { useOptions } from "../ui/use_options.ts";
import { COUNTRY_CODES, DEFAULT_COUNTRY } from "../../domain/countries.ts";
import { trialDays, trialDueDate } from "../../domain/subscription.ts";
import { COMPANIES_PATHS, dueText, type PlanRef } from "../companies/company_row.ts";
import { useTrialSetting } from "../companies/use_trial.ts";

/** The spec's submit delay for the company form (001 §9). */
const SUBMIT_DELAY_MS = 500;

/** The form's values (SignupInput's fields). */
interface SignupValues extends Record<string, unknown> {
  namecomplete: string;
  name: string;
  email: string;
  password: string;
  phone: string;
  pais: string;
  planId: number | null;
  indicator: string;
}

const EMPTY: SignupValues = {
  namecomplete: "",
  name: "",
  email: "",
  password: "",
  phone: "",
  pais: DEFAULT_COUNTRY,
  planId: null,
  indicator: "",
};

/** A country code's name in the viewer's language (the code itself where Intl cannot name it). */
function countryName(code: string): string {
  try {
    return new Intl.DisplayNames([currentLang()], { type: "region" }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** The sign-up form. */
export function NewCompanyTab({ initial }: SettingsTabProps) {
  const serverPlans = initial?.[COMPANIES_PATHS.plans] as PlanRef[] | null | undefined;
  const fetchedPlans = useOptions(serverPlans ? null : COMPANIES_PATHS.plans) as PlanRef[];
  const plans = serverPlans ?? fetchedPlans;
  const days = trialDays(useTrialSetting(initial));
  const form = useSchemaForm<SignupValues>({
    schema: "SignupInput",
    delayMs: SUBMIT_DELAY_MS,
    initial: EMPTY,
    onSubmit: async (v) => {
      const body = {
        ...v,
        recurrence: "MENSAL",
        dueDate: new Date(trialDueDate(Date.now(), days)).toISOString(),
        status: "t",
        campaignsEnabled: true,
      };
      try {
        await api("POST", "/companies/internal", body);
      } catch (error) {
        showToast("error", t("companies.saveFailed"));
        const answer = (error as { body?: { error?: string; fields?: Record<string, string> } }).body;
        if (answer?.error === "ERR_DUPLICATED_EMAIL") throw { body: { fields: { email: t("users.emailTaken") } } };
        if (answer?.error === "ERR_CONFLICT") throw { body: { fields: { name: t("companies.saveFailed") } } };
        if (answer?.fields) throw error;
        return;
      }
      showToast("success", t("companies.saved"));
      form.reset(EMPTY);
    },
  });
  const planLabel = (p: PlanRef) =>
    t("newCompany.planOption", { name: p.name, users: p.users, connections: p.connections, value: Number(p.value ?? 0).toFixed(2) });

  return (
    <form className="new-company-form card" onSubmit={form.submit} noValidate data-testid="new-company-form" aria-labelledby="new-company-title">
      <h2 id="new-company-title" className="company-form-title">{t("newCompany.title")}</h2>
      <div className="company-form-grid">
        <TextField form={form} name="namecomplete" label={t("newCompany.namecomplete")} />
        <TextField form={form} name="name" label={t("newCompany.name")} />
        <TextField form={form} name="email" label={t("newCompany.email")} type="email" />
        <TextField form={form} name="password" label={t("newCompany.password")} type="password" />
        <TextField form={form} name="phone" label={t("newCompany.phone")} type="tel" />
        <SelectField form={form} name="pais" label={t("newCompany.country")} options={COUNTRY_CODES.map((c) => ({ value: c, label: countryName(c) }))} />
        <SelectField form={form} name="planId" label={t("newCompany.plan")} empty={t("common.select")} options={plans.map((p) => ({ value: p.id, label: planLabel(p) }))} />
        <TextField form={form} name="indicator" label={t("newCompany.indicator")} />
      </div>
      <p className="field-hint">{t("newCompany.trialHint", { days, date: dueText(new Date(trialDueDate(Date.now(), days)).toISOString()) })}</p>
      <div className="company-form-actions">
        <span className="company-form-spacer" />
        <button type="submit" className="btn btn-primary" disabled={form.busy} aria-busy={form.busy} data-testid="new-company-save">
          {form.busy ? t("common.saving") : t("newCompany.submit")}
        </button>
      </div>
    </form>
  );
}
