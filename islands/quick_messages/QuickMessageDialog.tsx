/**
 * Add or edit one quick reply (spec 001 §5): shortcode 'Obrigatório'; message required unless
 * a file is attached (domain `messageRequired`, through the form's `check`); the general flag
 * for admin and supervisor only; one media file of the spec's types. The file is sent after
 * the record is saved (POST /quick-messages/{id}/media-upload) and a removed file is deleted
 * then (DELETE …/media-upload), so Cancel leaves the stored reply as it was.
 */
import { useEffect, useRef } from "react";
import { MSG } from "../../domain/text.ts";
import { messageRequired, type QuickMessage } from "../../domain/quick_message.ts";
import { api } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { showToast } from "../lib/toast.ts";
import { CheckField, TextField, useSchemaForm } from "../ui/form.tsx";
import { RecordDialog, type RecordDialogProps, saveRecord } from "../ui/record_dialogs.tsx";
import { AttachmentField } from "./AttachmentField.tsx";

/** A quick reply as GET /quick-messages/ answers it (the record and its signed media URL). */
export type QuickMessageRow = QuickMessage & { mediaUrl?: string | null };

/** The form's values: QuickMessageInput's fields; `mediaName` is the attachment shown. */
interface QuickMessageValues extends Record<string, unknown> {
  shortcode: string;
  message: string;
  geral: boolean;
  mediaName: string | null;
}

/** Props of QuickMessageDialog. */
export interface QuickMessageDialogProps extends RecordDialogProps<QuickMessageRow> {
  /** Admin or supervisor: may set `geral`. */
  manageAll: boolean;
}

/** A refused upload shown on the attachment field (the form shows `fields` in place). */
function attachmentError(error: unknown): unknown {
  const { status, body } = error as { status?: number; body?: { fields?: Record<string, string> } };
  const text = status === 413 ? t("quickMessages.fileTooBig") : body?.fields?.file ? t("quickMessages.fileType") : null;
  return text ? { body: { fields: { mediaName: text } } } : error;
}

/** The dialog; see the module doc. */
export function QuickMessageDialog({ row: quick, manageAll, onClose, onSaved }: QuickMessageDialogProps) {
  /** The file chosen in this dialog, sent after the record is saved. */
  const file = useRef<File | null>(null);
  /** The record once created here, so a retry after a failed upload updates it instead. */
  const saved = useRef<QuickMessageRow | null>(quick);
  const form = useSchemaForm<QuickMessageValues>({
    schema: "QuickMessageInput",
    initial: { shortcode: quick?.shortcode ?? "", message: quick?.message ?? "", geral: quick?.geral ?? false, mediaName: quick?.mediaName ?? null },
    check: (v) => (messageRequired({ ...v, status: true, caption: "" }, false) ? { message: MSG.obrigatorio } : {}),
    onSubmit: async (v) => {
      const body = { shortcode: v.shortcode, message: v.message, mediaName: v.mediaName, ...(manageAll ? { geral: v.geral } : {}) };
      const current = saved.current;
      let record = await saveRecord<QuickMessageRow>("/quick-messages", current, body);
      saved.current = record;
      onSaved(record);
      if (file.current) {
        const data = new FormData();
        data.append("file", file.current);
        record = await api<QuickMessageRow>("POST", `/quick-messages/${record.id}/media-upload`, data).catch((e) => {
          throw attachmentError(e);
        });
        file.current = null;
      } else if (record.mediaName && !v.mediaName) {
        record = await api<QuickMessageRow>("DELETE", `/quick-messages/${record.id}/media-upload`);
      }
      saved.current = record;
      onSaved(record);
      showToast("success", t("quickMessages.saved"));
      onClose();
    },
  });
  // Attaching a file makes the message optional: re-check a message already marked 'Obrigatório'.
  useEffect(() => {
    if (form.errors.message) form.touch("message");
  }, [form.values.mediaName]);
  return (
    <RecordDialog form={form} title={t(quick ? "quickMessages.edit" : "quickMessages.add")} onClose={onClose} testId="quick-message-save">
      <div className={manageAll ? undefined : "form-full"}>
        <TextField form={form} name="shortcode" label={t("quickMessages.shortcode")} autoFocus />
      </div>
      {manageAll && (
        <div className="qm-geral">
          <CheckField form={form} name="geral" label={t("quickMessages.geral")} />
        </div>
      )}
      <div className="form-full">
        <TextField form={form} name="message" label={t("quickMessages.message")} rows={5} hint={t("quickMessages.messageHint")} variables />
      </div>
      <AttachmentField
        name={form.values.mediaName}
        error={form.errors.mediaName}
        disabled={form.busy}
        onChoose={(chosen) => {
          file.current = chosen;
          form.set("mediaName", chosen?.name ?? null);
        }}
      />
    </RecordDialog>
  );
}
