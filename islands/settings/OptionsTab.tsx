/**
 * The Opções tab of /settings (spec 001 §2.4, §3, §9): every setting in titled sections
 * (islands/settings/options_keys.ts), each control saving at once through PUT
 * /settings/{key} with 'Atualizando...' and 'Operação atualizada com sucesso.'. The platform
 * block (global keys, e-mail and payment credentials) shows to super users only; credentials
 * are write-only (the server sends a mask). Admins edit; a supervisor sees the values
 * read-only. Values follow `company-{id}-settings`, so another admin's change shows at once;
 * the session's copy of the settings is patched after a save so the rest of the page agrees.
 */
import { useEffect, useState } from "react";
import { api, type ApiError, get } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { allowed, type SessionUser, updateSessionUser, useSession } from "../lib/session.ts";
import { channelName, onChannel, startSocket } from "../lib/socket.ts";
import { dismissToast, showToast, toastError } from "../lib/toast.ts";
import { Skeleton } from "../ui/States.tsx";
import type { SettingsTabProps } from "../SettingsPage.tsx";
import { OPTION_SECTIONS } from "./options_keys.ts";
import { OptionControlView, type SaveResult } from "./options_controls.tsx";

/** GET /settings/ rows. */
type SettingRow = { key: string; value: string };

const PATH = "/settings/";
const UPDATING = "settings-updating";

const toMap = (rows: unknown): Record<string, string> | null =>
  Array.isArray(rows) ? Object.fromEntries((rows as SettingRow[]).map((r) => [r.key, r.value])) : null;

/** The session user with `key` set to `value` in its company's settings. */
function patched(user: SessionUser, key: string, value: string): SessionUser {
  if (!user.company) return user;
  const rest = user.company.settings.filter((s) => s.key !== key);
  return { ...user, company: { ...user.company, settings: [...rest, { key, value }] } };
}

/** The options tab. */
export function OptionsTab({ viewer, initial }: SettingsTabProps) {
  const [values, setValues] = useState<Record<string, string> | null>(() => toMap(initial?.[PATH]));
  const session = useSession();
  const canEdit = allowed(viewer, "settings:manage");

  useEffect(() => {
    if (!values) get<SettingRow[]>(PATH).then((rows) => setValues(toMap(rows)), toastError);
  }, []);

  useEffect(() => {
    startSocket(viewer.companyId, viewer.id);
    return onChannel(channelName(viewer.companyId, "settings"), (data) => {
      const setting = (data as { setting?: { key: string; value?: string } }).setting;
      if (!setting) return;
      if (setting.value !== undefined) {
        setValues((old) => old && { ...old, [setting.key]: setting.value! });
        return;
      }
      // A credential's event carries no value: ask for its (masked) state.
      get<SettingRow>(`/settings/${setting.key}`).then(
        (row) => setValues((old) => old && { ...old, [row.key]: row.value }),
        () => {},
      );
    });
  }, [viewer.companyId, viewer.id]);

  async function save(key: string, value: string): Promise<SaveResult> {
    const before = values?.[key];
    setValues((old) => old && { ...old, [key]: value });
    showToast("info", t("settingsOptions.updating"), UPDATING);
    try {
      const saved = await api<SettingRow>("PUT", `/settings/${key}`, { value });
      setValues((old) => old && { ...old, [key]: saved.value });
      dismissToast(UPDATING);
      showToast("success", t("settingsOptions.updated"));
      if (session.status === "ready") updateSessionUser(patched(session.user, key, saved.value));
      return { value: saved.value };
    } catch (error) {
      dismissToast(UPDATING);
      setValues((old) => old && before !== undefined ? { ...old, [key]: before } : old);
      const body = (error as ApiError).body as { fields?: { value?: string } } | undefined;
      if (body?.fields?.value) return { error: body.fields.value };
      toastError(body ?? error);
      return { error: t("settingsOptions.notSaved") };
    }
  }

  if (!values) return <Skeleton rows={8} />;
  const sections = OPTION_SECTIONS.filter((s) => !s.global || viewer.super);
  return (
    <div className="settings-options" data-testid="settings-options">
      {!canEdit && <p className="muted">{t("settingsOptions.readOnly")}</p>}
      {sections.map((section) => {
        // Keys the viewer may not read (integration keys for non-admins) are not in the list.
        const controls = section.controls.filter((c) => c.key in values);
        if (controls.length === 0) return null;
        return (
          <section key={section.id} className={section.global ? "options-section options-global" : "options-section"} aria-labelledby={`options-${section.id}`} data-testid={`options-${section.id}`}>
            <h2 id={`options-${section.id}`}>{t(section.title)}</h2>
            {section.global && <p className="muted options-note">{t("settingsOptions.globalNote")}</p>}
            <div className="options-grid">
              {controls.map((control) => (
                <OptionControlView key={control.key} control={control} value={values[control.key] ?? ""} disabled={!canEdit} save={save} />
              ))}
            </div>
          </section>
        );
      })}
    </div>
  );
}
