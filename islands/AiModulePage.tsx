/**
 * The AI module page (spec 002 §2.17, §5, §8): three sections, each saved on its own: the
 * endpoint (an OpenAI-compatible chat-completions URL, the model, a write-only API key with
 * 'Copiar link' answering 'Nenhum link salvo ainda' while none is saved), the system
 * instructions and the data description. Values are checked with the server's own rules
 * (domain/ai_module.ts) at the fields and in a toast, as §5 asks; a failed save says which
 * section failed ('Erro ao salvar/atualizar ...'). Admins write; other users read. The plan
 * flag gate (useAI) is the shell's routeGate, and the API refuses too.
 */
import { useState } from "react";
import { Copy, KeyRound } from "lucide-react";
import { t } from "./lib/i18n.ts";
import type { LocaleKey } from "./locales/pt.ts";
import { allowed } from "./lib/session.ts";
import { showToast } from "./lib/toast.ts";
import { type AiSettingRow, type AiValues, saveKeys, valuesOf } from "./ai_module/settings.ts";
import { AiSection } from "./ai_module/AiSection.tsx";
import { AdminPage, type AdminPageProps, useViewer } from "./ui/AdminPage.tsx";
import { TextField, useSchemaForm } from "./ui/form.tsx";

/** Props of the AiModulePage island: GET /ai-module/ as read on the server. */
export type AiModulePageProps = AdminPageProps<AiSettingRow[]>;

/** The AI module page. */
export default function AiModulePage({ initial, viewer: serverViewer }: AiModulePageProps) {
  const viewer = useViewer(serverViewer);
  const canEdit = viewer ? allowed(viewer, "settings:manage") : false;
  const [stored, setStored] = useState<AiValues>(() => valuesOf(initial));
  return (
    <AdminPage title={t("aiModule.title")} testId="ai-module-page">
      <div className="ai-module">
        <p className="ai-intro">{t("aiModule.intro")}</p>
        {!canEdit && <p className="ai-readonly" role="note">{t("aiModule.readOnly")}</p>}
        <EndpointSection stored={stored} onStored={setStored} canEdit={canEdit} />
        <TextSection
          stored={stored}
          onStored={setStored}
          canEdit={canEdit}
          name="system-message"
          schema="AiInstructionsForm"
          title="aiModule.systemSection"
          hint="aiModule.systemHint"
          label="aiModule.systemMessage"
          error="aiModule.errorSystem"
        />
        <TextSection
          stored={stored}
          onStored={setStored}
          canEdit={canEdit}
          name="data-description"
          schema="AiDataForm"
          title="aiModule.dataSection"
          hint="aiModule.dataHint"
          label="aiModule.dataDescription"
          error="aiModule.errorData"
        />
      </div>
    </AdminPage>
  );
}

/** What every section gets. */
interface SectionProps {
  stored: AiValues;
  onStored: (values: AiValues) => void;
  canEdit: boolean;
}

interface EndpointValues extends Record<string, unknown> {
  "form-endpoint": string;
  model: string;
  "api-key": string;
}

/** The endpoint, the model and the write-only key. */
function EndpointSection({ stored, onStored, canEdit }: SectionProps) {
  const keySet = !!stored["api-key"];
  const form = useSchemaForm<EndpointValues>({
    schema: "AiEndpointForm",
    initial: { "form-endpoint": stored["form-endpoint"] ?? "", model: stored.model ?? "", "api-key": "" },
    onSubmit: async (v) => {
      // A blank key field keeps the saved key (it is never shown, so it is never filled in).
      const next: AiValues = { "form-endpoint": v["form-endpoint"].trim(), model: v.model.trim() };
      if (v["api-key"].trim()) next["api-key"] = v["api-key"].trim();
      try {
        onStored(await saveKeys(stored, next));
      } catch {
        showToast("error", t("aiModule.errorEndpoint"));
        return;
      }
      form.set("api-key", "");
      showToast("success", t("aiModule.saved"));
    },
  });

  async function removeKey() {
    try {
      onStored(await saveKeys(stored, { "api-key": "" }));
      showToast("success", t("aiModule.keyRemoved"));
    } catch {
      showToast("error", t("aiModule.errorEndpoint"));
    }
  }

  async function copyLink() {
    const link = stored["form-endpoint"];
    if (!link) return showToast("error", t("aiModule.noLink"));
    try {
      await navigator.clipboard.writeText(link);
    } catch { /* No clipboard (an insecure origin): the link is in the field to copy by hand. */ }
    showToast("success", t("aiModule.linkCopied"));
  }

  return (
    <AiSection
      title={t("aiModule.endpointSection")}
      hint={t("aiModule.endpointHint")}
      form={form}
      schema="AiEndpointForm"
      canEdit={canEdit}
      testId="ai-endpoint"
      extra={
        <>
          <button type="button" className="btn" onClick={copyLink}>
            <Copy size={16} aria-hidden="true" /> {t("aiModule.copyLink")}
          </button>
          {canEdit && keySet && (
            <button type="button" className="btn" onClick={removeKey} disabled={form.busy}>
              <KeyRound size={16} aria-hidden="true" /> {t("aiModule.removeKey")}
            </button>
          )}
        </>
      }
    >
      <TextField form={form} name="form-endpoint" label={t("aiModule.endpoint")} type="url" className="form-full" disabled={!canEdit} placeholder="https://api.openai.com/v1/chat/completions" />
      <TextField form={form} name="model" label={t("aiModule.model")} disabled={!canEdit} placeholder="gpt-4o-mini" />
      <TextField
        form={form}
        name="api-key"
        label={t("aiModule.apiKey")}
        type="password"
        disabled={!canEdit}
        hint={t(keySet ? "aiModule.apiKeySet" : "aiModule.apiKeyUnset")}
        placeholder={keySet ? "••••••••" : ""}
      />
    </AiSection>
  );
}

/** One text section (instructions or data description). */
function TextSection(
  { stored, onStored, canEdit, name, schema, title, hint, label, error }: SectionProps & {
    name: "system-message" | "data-description";
    schema: "AiInstructionsForm" | "AiDataForm";
    title: LocaleKey;
    hint: LocaleKey;
    label: LocaleKey;
    error: LocaleKey;
  },
) {
  const form = useSchemaForm<Record<string, string>>({
    schema,
    initial: { [name]: stored[name] ?? "" },
    onSubmit: async (v) => {
      try {
        onStored(await saveKeys(stored, { [name]: v[name].trim() }));
      } catch {
        showToast("error", t(error));
        return;
      }
      showToast("success", t("aiModule.saved"));
    },
  });
  return (
    <AiSection title={t(title)} hint={t(hint)} form={form} schema={schema} canEdit={canEdit} testId={`ai-${name}`}>
      <TextField form={form} name={name} label={t(label)} rows={8} className="form-full" disabled={!canEdit} />
    </AiSection>
  );
}

