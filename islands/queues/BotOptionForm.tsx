/**
 * The form of one bot option (its edit toggle is on): title, message (for an n8n option the
 * integration URL), type and its target (a queue for `queue`, a user for `attendent`), and
 * a media file (image, video or PDF) or its removal (clearMedia). The first change reminds
 * that nothing is stored until 'Salvar opção' (spec 001 §8); the save is a PUT, multipart
 * when a file goes with it.
 */
import { type KeyboardEvent, useId, useRef, useState } from "react";
import { Paperclip, X } from "lucide-react";
import { api } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { toastError } from "../lib/toast.ts";
import type { QueueOptionType } from "../../domain/queue_option.ts";
import type { OptionRow, QueueRow, UserChoice } from "./types.ts";
import { TemplateVariables } from "../ui/TemplateVariables.tsx";

const TYPES: readonly QueueOptionType[] = ["text", "queue", "attendent", "n8n"];
const TYPE_TEXT = { text: "queues.bot.typeText", queue: "queues.bot.typeQueue", attendent: "queues.bot.typeAttendent", n8n: "queues.bot.typeN8n" } as const;

/** The label of an option type. */
export function typeLabel(type: QueueOptionType): string {
  return t(TYPE_TEXT[type]);
}

/** What the form edits. */
interface Draft {
  title: string;
  message: string;
  queueType: QueueOptionType;
  queueOptionsId: number | null;
  queueUsersId: number | null;
  clearMedia: boolean;
}

const draftOf = (o: OptionRow): Draft => ({
  title: o.title,
  message: o.message,
  queueType: o.queueType,
  queueOptionsId: o.queueOptionsId,
  queueUsersId: o.queueUsersId,
  clearMedia: false,
});

/** The body of the PUT: JSON, or multipart with the file. */
function body(draft: Draft, file: File | null): FormData | Draft {
  if (!file) return draft;
  const form = new FormData();
  for (const [key, value] of Object.entries(draft)) form.append(key, value === null ? "" : String(value));
  form.append("file", file);
  return form;
}

/** Enter in a one-line field must not submit the queue form around the tree. */
function keepEnter(event: KeyboardEvent) {
  if (event.key === "Enter" && (event.target as HTMLElement).tagName === "INPUT") event.preventDefault();
}

/** Props of BotOptionForm. */
export interface BotOptionFormProps {
  option: OptionRow;
  queues: QueueRow[];
  users: UserChoice[];
  onSaved: (option: OptionRow) => void;
}

/** The form of one option. */
export function BotOptionForm({ option, queues, users, onSaved }: BotOptionFormProps) {
  const id = useId();
  const [draft, setDraft] = useState<Draft>(() => draftOf(option));
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  // Unsaved changes: said beside the save button while they last, never as a toast that
  // would still show when the "saved" toast arrives (#41 saw both at once).
  const [dirty, setDirty] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  function change(patch: Partial<Draft>) {
    setDraft((d) => ({ ...d, ...patch }));
    setErrors({});
    setDirty(true);
  }

  async function save() {
    setBusy(true);
    try {
      const saved = await api<OptionRow>("PUT", `/queue-options/${option.id}`, body(draft, file));
      setDirty(false);
      setFile(null);
      if (fileInput.current) fileInput.current.value = "";
      setDraft(draftOf(saved));
      onSaved(saved);
    } catch (error) {
      const response = (error as { body?: { fields?: Record<string, string> } }).body;
      if (response?.fields) setErrors(response.fields);
      else toastError(response ?? error);
    } finally {
      setBusy(false);
    }
  }

  const field = (name: string) => ({
    id: `${id}-${name}`,
    "aria-invalid": errors[name] ? true : undefined,
    "aria-describedby": errors[name] ? `${id}-${name}-error` : undefined,
  });
  const message = (name: string) =>
    errors[name] && <span className="field-error" id={`${id}-${name}-error`} role="alert">{errors[name]}</span>;
  const hasMedia = !!option.mediaPath && !draft.clearMedia;
  /** The select of a `queue` option's queue or an `attendent` option's user. */
  const targetField = (name: "queueOptionsId" | "queueUsersId", label: string, choices: { id: number; name: string }[]) => (
    <div className="field">
      <label htmlFor={`${id}-${name}`}>{label}</label>
      <select {...field(name)} className="input" value={draft[name] ?? ""} disabled={busy} onChange={(e) => change({ [name]: e.target.value ? Number(e.target.value) : null })}>
        <option value="">{t("common.select")}</option>
        {choices.map((c) => <option key={c.id} value={c.id}>{c.name}</option>)}
      </select>
      {message(name)}
    </div>
  );

  return (
    <div className="bot-form" onKeyDown={keepEnter} data-testid="bot-form">
      <div className="field">
        <label htmlFor={`${id}-title`}>{t("queues.bot.title")}</label>
        <input {...field("title")} className="input" value={draft.title} disabled={busy} onChange={(e) => change({ title: e.target.value })} />
        {message("title")}
      </div>
      <div className="field">
        <label htmlFor={`${id}-queueType`}>{t("queues.bot.type")}</label>
        <select {...field("queueType")} className="input" value={draft.queueType} disabled={busy} onChange={(e) => change({ queueType: e.target.value as QueueOptionType })}>
          {TYPES.map((type) => <option key={type} value={type}>{typeLabel(type)}</option>)}
        </select>
      </div>
      {draft.queueType === "queue" && targetField("queueOptionsId", t("queues.bot.targetQueue"), queues)}
      {draft.queueType === "attendent" && targetField("queueUsersId", t("queues.bot.targetUser"), users)}
      <div className="field bot-form-wide">
        <label htmlFor={`${id}-message`}>{t(draft.queueType === "n8n" ? "queues.bot.url" : "queues.bot.message")}</label>
        {draft.queueType === "n8n"
          ? <input {...field("message")} className="input" type="url" value={draft.message} disabled={busy} onChange={(e) => change({ message: e.target.value })} />
          : <textarea {...field("message")} className="input" rows={3} value={draft.message} disabled={busy} onChange={(e) => change({ message: e.target.value })} />}
        {message("message")}
        {draft.queueType !== "n8n" && <TemplateVariables />}
      </div>
      <div className="field bot-form-wide">
        <label htmlFor={`${id}-file`}>{t("queues.bot.media")}</label>
        {hasMedia && (
          <span className="bot-media">
            <Paperclip size={14} aria-hidden="true" />
            {option.mediaUrl ? <a href={option.mediaUrl} target="_blank" rel="noreferrer">{option.mediaName}</a> : option.mediaName}
            <button type="button" className="icon-btn icon-danger" aria-label={t("queues.bot.removeMedia")} title={t("queues.bot.removeMedia")} onClick={() => change({ clearMedia: true })} disabled={busy}>
              <X size={14} aria-hidden="true" />
            </button>
          </span>
        )}
        {option.mediaPath && draft.clearMedia && <span className="field-hint">{t("queues.bot.mediaRemoved")}</span>}
        <input
          ref={fileInput}
          id={`${id}-file`}
          type="file"
          accept="image/*,video/*,application/pdf"
          disabled={busy}
          onChange={(e) => {
            setFile(e.target.files?.[0] ?? null);
            change({});
          }}
        />
        {message("file")}
      </div>
      <div className="bot-form-actions">
        <button type="button" className="btn btn-primary btn-small" onClick={save} disabled={busy} aria-busy={busy}>
          {busy ? t("common.saving") : t("queues.bot.save")}
        </button>
        {dirty && !busy && <span className="muted bot-unsaved" role="status" data-testid="bot-unsaved">{t("queues.bot.saveHint")}</span>}
      </div>
    </div>
  );
}
