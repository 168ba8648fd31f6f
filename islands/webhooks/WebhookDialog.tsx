/**
 * Add or edit a webhook subscription: URL, the events checklist, the secret and active,
 * checked with the server's own schema (WebhookSubscriptionInput). The secret is write-only:
 * an edit shows the mask and keeps the stored secret unless a new one is typed or generated;
 * a generated one is shown once, in the field, to be copied into the receiver.
 */
import { KeyRound } from "lucide-react";
import { t } from "../lib/i18n.ts";
import { CheckField, CheckListField, TextField } from "../ui/form.tsx";
import { RecordDialog, type RecordDialogProps, useRecordForm } from "../ui/record_dialogs.tsx";
import { eventLabel, EVENTS, type WebhookRow } from "./rows.ts";

interface Values extends Record<string, unknown> {
  url: string;
  events: string[];
  secret: string;
  active: boolean;
}

/** 32 random bytes as hex: a secret no one has to invent. */
function randomSecret(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The dialog; `row` null adds one. */
export function WebhookDialog({ row: webhook, onClose, onSaved }: RecordDialogProps<WebhookRow>) {
  const form = useRecordForm<Values, WebhookRow>({
    schema: "WebhookSubscriptionInput",
    initial: {
      url: webhook?.url ?? "",
      events: webhook?.events ?? ["message.created"],
      secret: webhook?.secret ?? "",
      active: webhook?.active ?? true,
    },
    path: "/webhooks/subscriptions",
    row: webhook,
    savedText: t("webhooks.saved"),
    onSaved,
    onClose,
  });
  return (
    <RecordDialog form={form} title={t(webhook ? "webhooks.edit" : "webhooks.add")} onClose={onClose} wide testId="webhook-save">
      <TextField form={form} name="url" label={t("webhooks.url")} type="url" placeholder="https://" autoFocus className="form-full" />
      <CheckListField form={form} name="events" label={t("webhooks.events")} options={EVENTS.map((e) => ({ value: e, label: eventLabel(e) }))} className="form-full" />
      <div className="webhook-secret-row form-full">
        <TextField form={form} name="secret" label={t("webhooks.secret")} hint={t(webhook ? "webhooks.secretKeep" : "webhooks.secretHint")} />
        <button type="button" className="btn" onClick={() => form.set("secret", randomSecret())} disabled={form.busy}>
          <KeyRound size={16} aria-hidden="true" /> {t("webhooks.generate")}
        </button>
      </div>
      <CheckField form={form} name="active" label={t("webhooks.activeField")} />
    </RecordDialog>
  );
}
