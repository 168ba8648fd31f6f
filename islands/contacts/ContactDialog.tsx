/**
 * Add or edit one contact (spec 001 §2.14, §5): name 2 to 50, number 8 to 50 digits, a valid
 * e-mail or none, checked with the server's own ContactInput / ContactUpdate ('Too Short!',
 * 'Too Long!', 'Invalid email'), plus the extra-info rows the schema carries.
 */
import { Plus, Trash2 } from "lucide-react";
import { api } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { showToast } from "../lib/toast.ts";
import { IconButton } from "../ui/AdminPage.tsx";
import { FormDialog, type SchemaForm, TextField, useSchemaForm } from "../ui/form.tsx";
import type { ContactRow } from "./types.ts";

/** One extra-info pair as the schema holds it. */
interface Info {
  name: string;
  value: string;
}

/** The form's values (ContactInput's fields the screen edits). */
interface ContactValues extends Record<string, unknown> {
  name: string;
  number: string;
  email: string;
  extraInfo: Info[];
}

/** Props of ContactDialog. */
export interface ContactDialogProps {
  /** The contact to edit, or null to add one. */
  contact: ContactRow | null;
  /** A new contact's first values (the new-ticket dialog's search text as a name or a number). */
  initial?: { name?: string; number?: string };
  onClose: () => void;
  onSaved: (contact: ContactRow) => void;
}

/** The add/edit dialog; closes after a successful save. */
export function ContactDialog({ contact, initial, onClose, onSaved }: ContactDialogProps) {
  const form = useSchemaForm<ContactValues>({
    schema: contact ? "ContactUpdate" : "ContactInput",
    initial: {
      name: contact?.name ?? initial?.name ?? "",
      number: contact?.number ?? initial?.number ?? "",
      email: contact?.email ?? "",
      extraInfo: (contact?.extraInfo ?? []).map((i) => ({ ...i })),
    },
    onSubmit: async (v) => {
      const body = { ...v, extraInfo: v.extraInfo.filter((i) => i.name.trim() || i.value.trim()) };
      const saved = contact
        ? await api<ContactRow>("PUT", `/contacts/${contact.id}`, body)
        : await api<ContactRow>("POST", "/contacts", body);
      onSaved(saved);
      showToast("success", t("contacts.saved"));
      onClose();
    },
  });
  return (
    <FormDialog
      open
      onOpenChange={(o) => !o && onClose()}
      title={t(contact ? "contacts.editTitle" : "contacts.addTitle")}
      form={form}
      testId="contact-save"
      wide
    >
      <TextField form={form} name="name" label={t("contacts.name")} autoFocus />
      <TextField form={form} name="number" label={t("contacts.number")} hint={t("contacts.numberHint")} type="tel" />
      <div className="form-full">
        <TextField form={form} name="email" label={t("contacts.email")} type="email" />
      </div>
      <ExtraInfoRows form={form} />
    </FormDialog>
  );
}

/** The two inputs of an extra-info row and their labels. */
const INFO_FIELDS = [["name", "contacts.infoName"], ["value", "contacts.infoValue"]] as const;

/** The extra-info pairs: a name and a value per row, added and removed freely. */
function ExtraInfoRows({ form }: { form: SchemaForm<ContactValues> }) {
  const rows = form.values.extraInfo;
  const put = (next: Info[]) => form.set("extraInfo", next);
  return (
    <fieldset className="field form-full contact-info" disabled={form.busy}>
      <legend>{t("contacts.extraInfo")}</legend>
      {rows.map((row, i) => (
        <div className="contact-info-row" key={i}>
          {INFO_FIELDS.map(([key, label]) => (
            <input
              key={key}
              className="input"
              aria-label={t(label)}
              placeholder={t(label)}
              value={row[key]}
              onChange={(e) => put(rows.map((r, j) => (j === i ? { ...r, [key]: e.target.value } : r)))}
            />
          ))}
          <IconButton label={t("contacts.removeInfo")} onClick={() => put(rows.filter((_, j) => j !== i))} danger>
            <Trash2 size={16} />
          </IconButton>
        </div>
      ))}
      <button type="button" className="btn btn-small" onClick={() => put([...rows, { name: "", value: "" }])}>
        <Plus size={14} aria-hidden="true" /> {t("contacts.addInfo")}
      </button>
    </fieldset>
  );
}
