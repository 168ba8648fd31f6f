/**
 * The add/edit dialog of the announcements page (spec 002 §2.7, §5, §9): title, text (7 rows),
 * priority 1..3 (default 3), status active (default on) and an optional .png/.jpg/.jpeg
 * attachment. A new announcement goes in one multipart POST; an edit is a PUT plus, for a new
 * file, POST /announcements/{id}/media-upload; the attachment is removed with DELETE.
 */
import { type FormEvent, useEffect, useState } from "react";
import { ANNOUNCEMENT_MEDIA, PRIORITY_DEFAULT } from "../../domain/announcement.ts";
import { api } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { showToast, toastError } from "../lib/toast.ts";
import { useBusy } from "../lib/use_busy.ts";
import { DialogFooter } from "../ui/DialogFooter.tsx";
import { Modal } from "../ui/Modal.tsx";

/** An announcement as the management API gives it. */
export interface AnnouncementRecord {
  id: number;
  title: string;
  text: string;
  priority: number;
  status: boolean;
  mediaName: string | null;
  mediaUrl: string | null;
  createdAt: number;
}

/** Props of AnnouncementDialog. */
export interface AnnouncementDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The announcement edited, or null to add one. */
  record: AnnouncementRecord | null;
  onSaved: () => void;
}

/** The priority choices with their labels (1 high, 2 medium, 3 low). */
export const PRIORITY_LABELS = {
  1: "announcements.priority1",
  2: "announcements.priority2",
  3: "announcements.priority3",
} as const;

const blank = { title: "", text: "", priority: PRIORITY_DEFAULT, status: true };

function hasAllowedType(file: File): boolean {
  const name = file.name.toLowerCase();
  return ANNOUNCEMENT_MEDIA.some((ext) => name.endsWith(ext));
}

/** Adds or edits one announcement. */
export function AnnouncementDialog({ open, onOpenChange, record, onSaved }: AnnouncementDialogProps) {
  const [form, setForm] = useState(blank);
  const [file, setFile] = useState<File | null>(null);
  const [mediaName, setMediaName] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { busy, run } = useBusy();

  useEffect(() => {
    if (!open) return;
    setForm(record ? { title: record.title, text: record.text, priority: record.priority, status: record.status } : blank);
    setMediaName(record?.mediaName ?? null);
    setFile(null);
    setErrors({});
  }, [open, record?.id]);

  /** Sets one field and clears its error. */
  function set<K extends keyof typeof blank>(key: K, value: (typeof blank)[K]) {
    setForm((f) => ({ ...f, [key]: value }));
    setErrors(({ [key]: _, ...rest }) => rest);
  }

  function validate(): Record<string, string> {
    const e: Record<string, string> = {};
    if (!form.title.trim()) e.title = t("validation.required");
    if (!form.text.trim()) e.text = t("validation.required");
    if (file && !hasAllowedType(file)) e.file = t("announcements.fileType");
    return e;
  }

  async function send() {
    const fields = { ...form, title: form.title.trim(), text: form.text.trim() };
    if (!record) {
      if (!file) return await api("POST", "/announcements", fields);
      const body = new FormData();
      for (const [key, value] of Object.entries(fields)) body.set(key, String(value));
      body.set("file", file);
      return await api("POST", "/announcements", body);
    }
    await api("PUT", `/announcements/${record.id}`, fields);
    if (file) {
      const body = new FormData();
      body.set("file", file);
      await api("POST", `/announcements/${record.id}/media-upload`, body);
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const e = validate();
    setErrors(e);
    if (Object.keys(e).length) return;
    await run(async () => {
      await send();
      showToast("success", t("announcements.saved"));
      onSaved();
      onOpenChange(false);
    });
  }

  async function removeMedia() {
    if (!record) return;
    try {
      await api("DELETE", `/announcements/${record.id}/media-upload`);
      setMediaName(null);
      onSaved();
    } catch (error) {
      toastError((error as { body?: unknown }).body ?? error);
    }
  }

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={t(record ? "announcements.editTitle" : "announcements.new")}
      footer={<DialogFooter onCancel={() => onOpenChange(false)} form="announcement-form" disabled={busy} />}
    >
      <form id="announcement-form" className="form-grid" onSubmit={submit} noValidate>
        <label className="field field-wide">
          <span>{t("announcements.colTitle")}</span>
          <input name="title" value={form.title} onChange={(e) => set("title", e.target.value)} aria-invalid={!!errors.title} />
          {errors.title && <small className="field-error">{errors.title}</small>}
        </label>
        <label className="field field-wide">
          <span>{t("announcements.text")}</span>
          <textarea name="text" rows={7} value={form.text} onChange={(e) => set("text", e.target.value)} aria-invalid={!!errors.text} />
          {errors.text && <small className="field-error">{errors.text}</small>}
        </label>
        <label className="field">
          <span>{t("announcements.colPriority")}</span>
          <select name="priority" value={form.priority} onChange={(e) => set("priority", Number(e.target.value))}>
            {Object.entries(PRIORITY_LABELS).map(([value, key]) => <option key={value} value={value}>{t(key)}</option>)}
          </select>
        </label>
        <label className="check">
          <input type="checkbox" name="status" checked={form.status} onChange={(e) => set("status", e.target.checked)} />
          <span>{t("announcements.active")}</span>
        </label>
        <div className="field field-wide">
          <span>{t("announcements.colMedia")}</span>
          {mediaName && !file && (
            <div className="input-with-button">
              <span className="announcement-media-name">{mediaName}</span>
              <button type="button" className="btn btn-small" onClick={removeMedia}>{t("announcements.removeMedia")}</button>
            </div>
          )}
          <input
            type="file"
            name="file"
            accept={ANNOUNCEMENT_MEDIA.join(",")}
            aria-label={t("announcements.attach")}
            aria-invalid={!!errors.file}
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setErrors(({ file: _, ...rest }) => rest);
            }}
          />
          {errors.file && <small className="field-error">{errors.file}</small>}
        </div>
      </form>
    </Modal>
  );
}
