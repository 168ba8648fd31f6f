/**
 * The contact edit dialog of the contact drawer (spec 000 §2 "contact create/edit dialog", §5):
 * name 2 to 50 characters, number 8 to 50, a valid e-mail or none, extra info rows and the
 * bot switch; the spec's texts (Too Short! / Too Long! / Required / Invalid email) under the
 * fields, checked here first and then by PUT /contacts/{id} (its field errors shown the same).
 */
import { type FormEvent, useState } from "react";
import { Plus, Trash2 } from "lucide-react";
import { api } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { showToast } from "../lib/toast.ts";
import { useBusy } from "../lib/use_busy.ts";
import { DialogFooter } from "../ui/DialogFooter.tsx";
import { Modal } from "../ui/Modal.tsx";

/** The contact fields the dialog edits. */
export interface EditableContact {
  id: number;
  name: string;
  number: string;
  email: string;
  disableBot?: boolean;
  extraInfo: { name: string; value: string }[];
}

type Fields = Partial<Record<"name" | "number" | "email", string>>;

/** The spec's field errors of `c` (none when valid). */
export function contactErrors(c: Pick<EditableContact, "name" | "number" | "email">): Fields {
  const out: Fields = {};
  const size = (v: string, min: number, max: number) =>
    v.length === 0 ? t("contactForm.required") : v.length < min ? t("contactForm.tooShort") : v.length > max ? t("contactForm.tooLong") : undefined;
  const name = size(c.name.trim(), 2, 50);
  const number = size(c.number.replace(/\D/g, ""), 8, 50);
  if (name) out.name = name;
  if (number) out.number = number;
  if (c.email.trim() && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(c.email.trim())) out.email = t("contactForm.invalidEmail");
  return out;
}

/** Props of ContactEditDialog. */
export interface ContactEditDialogProps {
  contact: EditableContact;
  onClose: () => void;
  onSaved: (contact: EditableContact) => void;
}

/** Edits one contact; closes after a successful save. */
export function ContactEditDialog({ contact, onClose, onSaved }: ContactEditDialogProps) {
  const [form, setForm] = useState<EditableContact>({ ...contact, extraInfo: contact.extraInfo.map((i) => ({ ...i })) });
  const [errors, setErrors] = useState<Fields>({});
  const { busy, run } = useBusy();
  const set = (patch: Partial<EditableContact>) => setForm((f) => ({ ...f, ...patch }));
  const setInfo = (i: number, patch: Partial<{ name: string; value: string }>) =>
    set({ extraInfo: form.extraInfo.map((row, j) => (j === i ? { ...row, ...patch } : row)) });

  async function save(event?: FormEvent) {
    event?.preventDefault();
    const found = contactErrors(form);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    await run(async () => {
      const saved = await api<EditableContact>("PUT", `/contacts/${contact.id}`, {
        name: form.name.trim(),
        number: form.number.trim(),
        email: form.email.trim(),
        disableBot: form.disableBot ?? false,
        extraInfo: form.extraInfo.filter((i) => i.name.trim() || i.value.trim()),
      });
      showToast("success", t("contactForm.saved"));
      onSaved(saved);
      onClose();
    }, (fields) => {
      setErrors(fields as Fields);
      return true;
    });
  }

  const field = (key: "name" | "number" | "email", label: string, type = "text") => (
    <label className="field">
      <span>{label}</span>
      <input type={type} value={form[key]} onChange={(e) => {
          set({ [key]: e.target.value });
          setErrors((all) => ({ ...all, [key]: undefined }));
        }} aria-invalid={!!errors[key]} data-testid={`contact-${key}`} />
      {errors[key] && <small className="field-error">{errors[key]}</small>}
    </label>
  );

  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={t("contactForm.editTitle")}
      footer={<DialogFooter onCancel={onClose} form="contact-edit" disabled={busy} testId="contact-save" />}
    >
      <form id="contact-edit" onSubmit={save} noValidate>
        {field("name", t("contactForm.name"))}
        {field("number", t("contact.number"))}
        {field("email", t("contact.email"), "email")}
        <label className="check">
          <input type="checkbox" checked={form.disableBot ?? false} onChange={(e) => set({ disableBot: e.target.checked })} />
          <span>{t("contactForm.disableBot")}</span>
        </label>
        <h3 className="dialog-subtitle">{t("contact.extraInfo")}</h3>
        {form.extraInfo.map((info, i) => (
          <div className="extra-row" key={i}>
            <input className="input" aria-label={t("contactForm.infoName")} placeholder={t("contactForm.infoName")} value={info.name} onChange={(e) => setInfo(i, { name: e.target.value })} />
            <input className="input" aria-label={t("contactForm.infoValue")} placeholder={t("contactForm.infoValue")} value={info.value} onChange={(e) => setInfo(i, { value: e.target.value })} />
            <button type="button" className="icon-btn" aria-label={t("common.delete")} onClick={() => set({ extraInfo: form.extraInfo.filter((_, j) => j !== i) })}>
              <Trash2 size={16} />
            </button>
          </div>
        ))}
        <button type="button" className="btn btn-small" onClick={() => set({ extraInfo: [...form.extraInfo, { name: "", value: "" }] })}>
          <Plus size={14} aria-hidden="true" /> {t("contactForm.addInfo")}
        </button>
      </form>
    </Modal>
  );
}
