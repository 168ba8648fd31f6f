/**
 * Campaign settings (/campaigns-config, spec 002 §2.5, §3, §9): three dropdowns with the §9
 * options (random message interval, messages per batch `longerIntervalAfter`, pause between
 * batches `greaterInterval`), the add-variable form (shortcut and content; a shortcut already
 * in the table is refused with the §5 message, compared as the server compares them), the
 * variables table with delete, and one save (POST /campaign-settings) answering
 * 'Configurações salvas'. The whole object is checked by the server's CampaignSettings first.
 */
import { type FormEvent, type KeyboardEvent, useState } from "react";
import { Plus, Trash2 } from "lucide-react";
import {
  BATCH_SIZE_OPTIONS,
  CAMPAIGN_TEXTS,
  type CampaignSettings,
  type CampaignVariable,
  DEFAULT_CAMPAIGN_SETTINGS,
  GREATER_INTERVAL_OPTIONS,
  hasVariable,
  MESSAGE_INTERVAL_OPTIONS,
} from "../domain/campaign.ts";
import { api } from "./lib/api.ts";
import { t } from "./lib/i18n.ts";
import { showToast } from "./lib/toast.ts";
import { AdminPage, type AdminPageProps, IconButton } from "./ui/AdminPage.tsx";
import { SelectField, useSchemaForm } from "./ui/form.tsx";

/** GET /campaign-settings body: key and JSON value. */
export type SettingsRows = Array<{ key: string; value: string }>;

/** Props of the CampaignsConfigPage island. */
export type CampaignsConfigPageProps = AdminPageProps<SettingsRows>;

/** The rows as settings, the §9 defaults for what is missing or unreadable. */
function fromRows(rows: SettingsRows | null): CampaignSettings {
  const out: Record<string, unknown> = { ...DEFAULT_CAMPAIGN_SETTINGS };
  for (const row of rows ?? []) {
    try {
      out[row.key] = JSON.parse(row.value);
    } catch {
      // A value that is not JSON keeps the default.
    }
  }
  return out as CampaignSettings;
}

type Values = CampaignSettings & Record<string, unknown>;

/** The settings page. */
export default function CampaignsConfigPage({ initial }: CampaignsConfigPageProps) {
  const form = useSchemaForm<Values>({
    schema: "CampaignSettings",
    initial: fromRows(initial) as Values,
    onSubmit: async (v) => {
      const saved = await api<SettingsRows>("POST", "/campaign-settings", { settings: v });
      form.reset(fromRows(saved) as Values);
      showToast("success", t("campaignsConfig.saved"));
    },
  });
  const seconds = (list: readonly number[]) => list.map((n) => ({ value: n, label: t("campaignsConfig.seconds", { n }) }));
  const variables = form.values.variables;

  return (
    <AdminPage title={t("campaignsConfig.title")} testId="campaigns-config">
      <form className="campaigns-config" onSubmit={form.submit} noValidate>
        <section className="card campaigns-config-section" aria-labelledby="cc-intervals">
          <h2 id="cc-intervals">{t("campaignsConfig.intervals")}</h2>
          <div className="form-grid campaigns-config-grid">
            <SelectField form={form} name="messageInterval" label={t("campaignsConfig.messageInterval")} options={seconds(MESSAGE_INTERVAL_OPTIONS)} />
            <SelectField
              form={form}
              name="longerIntervalAfter"
              label={t("campaignsConfig.longerIntervalAfter")}
              options={BATCH_SIZE_OPTIONS.map((n) => ({ value: n, label: t("campaignsConfig.messages", { n }) }))}
            />
            <SelectField form={form} name="greaterInterval" label={t("campaignsConfig.greaterInterval")} options={seconds(GREATER_INTERVAL_OPTIONS)} />
          </div>
        </section>
        <section className="card campaigns-config-section" aria-labelledby="cc-variables">
          <h2 id="cc-variables">{t("campaignsConfig.variables")}</h2>
          <AddVariable list={variables} disabled={form.busy} onAdd={(v) => form.set("variables", [...variables, v])} />
          {form.errors.variables && <p className="field-error" role="alert">{form.errors.variables}</p>}
          <table className="campaigns-variables" data-testid="campaign-variables">
            <thead>
              <tr>
                <th>{t("campaignsConfig.key")}</th>
                <th>{t("campaignsConfig.value")}</th>
                <th><span className="sr-only">{t("common.actions")}</span></th>
              </tr>
            </thead>
            <tbody>
              {variables.length === 0 && (
                <tr>
                  <td colSpan={3} className="muted">{t("campaignsConfig.noVariables")}</td>
                </tr>
              )}
              {variables.map((v) => (
                <tr key={v.key}>
                  <td><code>{`{${v.key}}`}</code></td>
                  <td>{v.value}</td>
                  <td className="col-actions">
                    <IconButton
                      label={t("campaignsConfig.removeVariable", { key: v.key })}
                      danger
                      disabled={form.busy}
                      onClick={() => form.set("variables", variables.filter((x) => x !== v))}
                    >
                      <Trash2 size={16} />
                    </IconButton>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
        <div className="campaigns-config-actions">
          <button type="submit" className="btn btn-primary" disabled={form.busy} aria-busy={form.busy} data-testid="campaigns-config-save">
            {form.busy ? t("common.saving") : t("campaignsConfig.save")}
          </button>
        </div>
      </form>
    </AdminPage>
  );
}

/** The add-variable row: shortcut and content, refused when the shortcut is taken (§5). */
function AddVariable({ list, disabled, onAdd }: { list: readonly CampaignVariable[]; disabled: boolean; onAdd: (v: CampaignVariable) => void }) {
  const [key, setKey] = useState("");
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | null>(null);
  // A div, not a nested form: Enter in these inputs adds the variable, not the whole save.
  const add = (event?: FormEvent) => {
    event?.preventDefault();
    const k = key.trim().replace(/^\{|\}$/g, "");
    if (!k || !value.trim()) return setError(t("validation.required"));
    if (hasVariable(list, k)) return setError(CAMPAIGN_TEXTS.duplicateVariable);
    onAdd({ key: k, value: value.trim() });
    setKey("");
    setValue("");
    setError(null);
  };
  const onEnter = (e: KeyboardEvent) => e.key === "Enter" && add(e as unknown as FormEvent);
  return (
    <div className="campaigns-add-variable">
      <label className="field">
        <span>{t("campaignsConfig.key")}</span>
        <input className="input" name="variableKey" value={key} disabled={disabled} onChange={(e) => setKey(e.target.value)} onKeyDown={onEnter} />
      </label>
      <label className="field">
        <span>{t("campaignsConfig.value")}</span>
        <input className="input" name="variableValue" value={value} disabled={disabled} onChange={(e) => setValue(e.target.value)} onKeyDown={onEnter} />
      </label>
      <button type="button" className="btn" onClick={() => add()} disabled={disabled}>
        <Plus size={16} aria-hidden="true" /> {t("campaignsConfig.addVariable")}
      </button>
      {error && <span className="field-error" role="alert" data-testid="variable-error">{error}</span>}
    </div>
  );
}
