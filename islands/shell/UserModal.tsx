/**
 * The user modal of spec 000 §2 for one's own profile: name, e-mail, password, and for admins
 * profile and queues, for super users the super flag, the default connection and the farewell
 * message. PUT /users/{id}; the save is delayed 400 ms and a success toast follows. A new
 * password or e-mail asks for the current password too (issue #38, domain/user.ts).
 */
import { type FormEvent, useEffect, useState } from "react";
import { needsCurrentPassword, USER_MSG } from "../../domain/user.ts";
import { api, get } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { allowed, loadSession, type SessionUser } from "../lib/session.ts";
import { showToast } from "../lib/toast.ts";
import { useBusy } from "../lib/use_busy.ts";
import { DialogFooter } from "../ui/DialogFooter.tsx";
import { Modal } from "../ui/Modal.tsx";
import { TemplateVariables } from "../ui/TemplateVariables.tsx";

interface Option {
  id: number;
  name: string;
}

/** Props of UserModal. */
export interface UserModalProps {
  user: SessionUser;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Edits the signed-in user. */
export function UserModal({ user, open, onOpenChange }: UserModalProps) {
  const [form, setForm] = useState({ name: user.name, email: user.email, password: "", currentPassword: "", profile: user.profile, super: user.super, queueIds: user.queues.map((q) => q.id), whatsappId: user.whatsappId, farewellMessage: "" });
  const [queues, setQueues] = useState<Option[]>(user.queues);
  const [connections, setConnections] = useState<Option[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { busy, run } = useBusy();
  const editProfile = allowed(user, "user-modal:editProfile");
  const editQueues = allowed(user, "user-modal:editQueues");
  const askCurrent = needsCurrentPassword(user.id, user, {
    email: form.email.trim().toLowerCase(),
    password: form.password || undefined,
  });

  useEffect(() => {
    if (!open) return;
    get<{ farewellMessage?: string }>(`/users/${user.id}`).then((u) => setForm((f) => ({ ...f, farewellMessage: u.farewellMessage ?? "" })), () => {});
    if (editQueues) get<Option[]>("/queue").then((q) => Array.isArray(q) && setQueues(q), () => {});
    get<Option[]>("/whatsapp").then((w) => Array.isArray(w) && setConnections(w), () => {});
  }, [open]);

  function validate(): Record<string, string> {
    const e: Record<string, string> = {};
    if (!form.name.trim()) e.name = t("validation.required");
    else if (form.name.trim().length < 2) e.name = t("validation.tooShort");
    else if (form.name.length > 50) e.name = t("validation.tooLong");
    if (!form.email) e.email = t("validation.required");
    else if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(form.email)) e.email = t("validation.email");
    if (form.password && form.password.length < 5) e.password = t("validation.tooShort");
    if (form.password.length > 50) e.password = t("validation.tooLong");
    if (askCurrent && !form.currentPassword) e.currentPassword = t("validation.required");
    return e;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const e = validate();
    setErrors(e);
    if (Object.keys(e).length) return;
    await run(async () => {
      await new Promise((r) => setTimeout(r, 400));
      const body: Record<string, unknown> = { name: form.name, email: form.email, whatsappId: form.whatsappId, farewellMessage: form.farewellMessage };
      if (form.password) body.password = form.password;
      if (askCurrent) body.currentPassword = form.currentPassword;
      if (editProfile) body.profile = form.profile;
      if (editQueues) body.queueIds = form.queueIds;
      if (allowed(user, "user-modal:editSuper")) body.super = form.super;
      await api("PUT", `/users/${user.id}`, body);
      showToast("success", t("userModal.saved"));
      loadSession(true);
      onOpenChange(false);
    }, (fields) => {
      // The server's answer on the current password, next to its field.
      if (!fields.currentPassword) return false;
      setErrors({ currentPassword: fields.currentPassword === USER_MSG.currentPasswordWrong ? t("userModal.currentPasswordWrong") : t("validation.required") });
      return true;
    });
  }

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={t("userModal.title")}
      footer={<DialogFooter onCancel={() => onOpenChange(false)} form="user-modal-form" disabled={busy} />}
    >
      <form id="user-modal-form" className="form-grid" onSubmit={submit} noValidate>
        <label className="field">
          <span>{t("userModal.name")}</span>
          <input value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} aria-invalid={!!errors.name} />
          {errors.name && <small className="field-error">{errors.name}</small>}
        </label>
        <label className="field">
          <span>{t("userModal.email")}</span>
          <input type="email" value={form.email} onChange={(e) => setForm({ ...form, email: e.target.value })} aria-invalid={!!errors.email} />
          {errors.email && <small className="field-error">{errors.email}</small>}
        </label>
        <label className="field">
          <span>{t("userModal.password")}</span>
          {/* Named by its label alone: the hint below is its description, not part of its name. */}
          <input
            type="password"
            autoComplete="new-password"
            value={form.password}
            onChange={(e) => setForm({ ...form, password: e.target.value })}
            aria-invalid={!!errors.password}
            aria-label={t("userModal.password")}
          />
          {errors.password ? <small className="field-error">{errors.password}</small> : <small className="field-hint">{t("users.passwordMin")}</small>}
        </label>
        {askCurrent && (
          <label className="field">
            <span>{t("userModal.currentPassword")}</span>
            <input
              type="password"
              autoComplete="current-password"
              value={form.currentPassword}
              onChange={(e) => setForm({ ...form, currentPassword: e.target.value })}
              aria-invalid={!!errors.currentPassword}
              aria-label={t("userModal.currentPassword")}
            />
            {errors.currentPassword
              ? <small className="field-error">{errors.currentPassword}</small>
              : <small className="field-hint">{t("userModal.currentPasswordHint")}</small>}
          </label>
        )}
        {editProfile && (
          <label className="field">
            <span>{t("userModal.profile")}</span>
            <select value={form.profile} onChange={(e) => setForm({ ...form, profile: e.target.value as SessionUser["profile"] })}>
              <option value="admin">{t("profile.admin")}</option>
              <option value="supervisor">{t("profile.supervisor")}</option>
              <option value="user">{t("profile.user")}</option>
            </select>
          </label>
        )}
        {allowed(user, "user-modal:editSuper") && (
          <label className="check">
            <input type="checkbox" checked={form.super} onChange={(e) => setForm({ ...form, super: e.target.checked })} />
            <span>{t("userModal.super")}</span>
          </label>
        )}
        {editQueues && (
          <fieldset className="field">
            <legend>{t("userModal.queues")}</legend>
            {queues.map((q) => (
              <label key={q.id} className="check">
                <input
                  type="checkbox"
                  checked={form.queueIds.includes(q.id)}
                  onChange={(e) => setForm({ ...form, queueIds: e.target.checked ? [...form.queueIds, q.id] : form.queueIds.filter((id) => id !== q.id) })}
                />
                <span>{q.name}</span>
              </label>
            ))}
          </fieldset>
        )}
        <label className="field">
          <span>{t("userModal.whatsapp")}</span>
          <select value={form.whatsappId ?? ""} onChange={(e) => setForm({ ...form, whatsappId: e.target.value ? Number(e.target.value) : null })}>
            <option value="">{t("common.none")}</option>
            {connections.map((c) => <option key={c.id} value={c.id}>{c.name}</option>)}
          </select>
        </label>
        <label className="field field-wide">
          <span>{t("userModal.farewell")}</span>
          <textarea rows={3} value={form.farewellMessage} onChange={(e) => setForm({ ...form, farewellMessage: e.target.value })} />
          <TemplateVariables />
        </label>
      </form>
    </Modal>
  );
}
