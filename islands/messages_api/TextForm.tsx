/**
 * The API page's text test form (spec 001 §2.17, §5): token, number, message, open ticket
 * (Sim/Não) and queue, all required ('queueId is required when openTicket is 1'), checked
 * with the API's own schema (ExternalSendForm) before the call; 'Mensagem enviada com
 * sucesso' on success.
 */
import { t } from "../lib/i18n.ts";
import { showToast } from "../lib/toast.ts";
import { type Choice, SelectField, TextField, useSchemaForm } from "../ui/form.tsx";
import { FormCard, reportFailure } from "./FormCard.tsx";
import { sendWithToken } from "./send.ts";

/** A queue the form offers. */
export interface QueueChoice {
  id: number;
  name: string;
}

interface TextValues extends Record<string, unknown> {
  token: string;
  number: string;
  body: string;
  openTicket: number | null;
  queueId: number | null;
}

const FIELDS = ["token", "number", "body", "openTicket", "queueId"] as const;

/** The text form. */
export function TextForm({ queues }: { queues: QueueChoice[] }) {
  const form = useSchemaForm<TextValues>({
    schema: "ExternalSendForm",
    initial: { token: "", number: "", body: "", openTicket: null, queueId: null },
    onSubmit: async ({ token, ...values }): Promise<void> => {
      try {
        await sendWithToken(token, values);
      } catch (error) {
        reportFailure(error, FIELDS, form.setError);
        return;
      }
      showToast("success", t("messagesApi.sent"));
      form.set("body", "");
    },
  });
  const yesNo: Choice<number>[] = [{ value: 1, label: t("messagesApi.yes") }, { value: 0, label: t("messagesApi.no") }];
  const queueChoices: Choice<number>[] = queues.map((q) => ({ value: q.id, label: q.name }));
  return (
    <FormCard title={t("messagesApi.textForm")} form={form} testId="api-text-form">
      <TextField form={form} name="token" label={t("messagesApi.token")} className="form-full" />
      <TextField form={form} name="number" label={t("messagesApi.number")} type="tel" placeholder="5511999999999" />
      <SelectField form={form} name="openTicket" label={t("messagesApi.openTicket")} options={yesNo} empty="" />
      <SelectField form={form} name="queueId" label={t("messagesApi.queue")} options={queueChoices} empty={t("messagesApi.selectQueue")} />
      <TextField form={form} name="body" label={t("messagesApi.body")} rows={3} className="form-full" variables />
    </FormCard>
  );
}
