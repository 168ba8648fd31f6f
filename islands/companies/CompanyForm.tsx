/**
 * The companies screen's form (spec 001 §2.6): create when no company is loaded, update when
 * one is; name, e-mail (required), phone, plan, status, due date with its recurrence (only
 * MENSAL), campaigns, referral code and the billing address. Checked with CompanyInput, the
 * server's own schema, and sent after the spec's 500 ms. Clear, save and delete each return
 * it to an empty form; 'Usuário' opens the user modal for the loaded company.
 */
import { t } from "../lib/i18n.ts";
import { CheckField, type SchemaForm, SelectField, TextField } from "../ui/form.tsx";
import type { CompanyValues, PlanRef } from "./company_row.ts";

/** Props of CompanyForm. */
export interface CompanyFormProps {
  form: SchemaForm<CompanyValues>;
  /** The loaded company's name, or null for a new one. */
  editing: string | null;
  plans: Pick<PlanRef, "id" | "name">[];
  onClear: () => void;
  onDelete: () => void;
  onUser: () => void;
}

/** The form and its buttons. */
export function CompanyForm({ form, editing, plans, onClear, onDelete, onUser }: CompanyFormProps) {
  const busy = form.busy;
  return (
    <form className="company-form card" onSubmit={form.submit} noValidate data-testid="company-form" aria-labelledby="company-form-title">
      <h2 id="company-form-title" className="company-form-title">
        {editing === null ? t("companies.formNew") : t("companies.formEdit", { name: editing })}
      </h2>
      <div className="company-form-grid">
        <TextField form={form} name="name" label={t("companies.name")} />
        <TextField form={form} name="email" label={t("companies.email")} type="email" />
        <TextField form={form} name="phone" label={t("companies.phone")} type="tel" />
        <SelectField form={form} name="planId" label={t("companies.plan")} empty={t("common.none")} options={plans.map((p) => ({ value: p.id, label: p.name }))} />
        <TextField form={form} name="dueDate" label={t("companies.dueDate")} type="date" />
        <SelectField form={form} name="recurrence" label={t("companies.recurrence")} options={[{ value: "MENSAL", label: t("companies.monthly") }]} />
        <TextField form={form} name="indicator" label={t("companies.indicator")} />
        <div className="company-form-checks">
          <CheckField form={form} name="status" label={t("companies.status")} />
          <CheckField form={form} name="campaignsEnabled" label={t("companies.campaigns")} />
        </div>
      </div>
      <details className="company-billing">
        <summary>{t("companies.billing")}</summary>
        <div className="company-form-grid">
          <TextField form={form} name="billingName" label={t("companies.billingName")} />
          <TextField form={form} name="addressZipCode" label={t("companies.zip")} />
          <TextField form={form} name="addressStreet" label={t("companies.street")} />
          <TextField form={form} name="addressDistrict" label={t("companies.district")} />
          <TextField form={form} name="addressCity" label={t("companies.city")} />
          <TextField form={form} name="addressState" label={t("companies.state")} />
        </div>
      </details>
      <div className="company-form-actions">
        <button type="button" className="btn" onClick={onUser} disabled={busy || editing === null}>{t("companies.user")}</button>
        <span className="company-form-spacer" />
        <button type="button" className="btn" onClick={onClear} disabled={busy}>{t("companies.clear")}</button>
        {editing !== null && (
          <button type="button" className="btn btn-danger" onClick={onDelete} disabled={busy}>{t("common.delete")}</button>
        )}
        <button type="submit" className="btn btn-primary" disabled={busy} aria-busy={busy} data-testid="company-save">
          {busy ? t("common.saving") : t("common.save")}
        </button>
      </div>
    </form>
  );
}
