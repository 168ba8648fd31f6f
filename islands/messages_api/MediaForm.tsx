/**
 * The API page's media test form (spec 001 §2.17, §5): token, number and one or more files,
 * each with its caption, all required (files and captions are checked here, the rest with the API's own
 * schema, ExternalMediaForm). Sent as the API's multipart body: `medias` and one `caption`
 * per file, openTicket 0 (the message joins the contact's history; the text form shows the
 * queue choice). 'Mensagem enviada com sucesso' on success.
 */
import { useId, useState } from "react";
import { t } from "../lib/i18n.ts";
import { showToast } from "../lib/toast.ts";
import { TextField, useSchemaForm } from "../ui/form.tsx";
import { FormCard, reportFailure } from "./FormCard.tsx";
import { sendWithToken } from "./send.ts";

interface MediaValues extends Record<string, unknown> {
  token: string;
  number: string;
  medias: Array<{ file: File; caption: string }>;
}

const FIELDS = ["token", "number", "medias"] as const;
/** The kit's 'Required' text, as the schemas give it. */
const REQUIRED = "Required";

/** The media form. */
export function MediaForm() {
  const filesId = useId();
  const [inputKey, setInputKey] = useState(0);
  const form = useSchemaForm<MediaValues>({
    schema: "ExternalMediaForm",
    initial: { token: "", number: "", medias: [] },
    check: (v) => {
      if (v.medias.length === 0) return { medias: REQUIRED };
      return Object.fromEntries(v.medias.map((m, i) => [`caption${i}`, m.caption.trim() ? undefined : REQUIRED]));
    },
    onSubmit: async ({ token, number, medias }): Promise<void> => {
      const body = new FormData();
      body.set("number", number);
      body.set("openTicket", "0");
      for (const { file, caption } of medias) {
        body.append("medias", file, file.name);
        body.append("caption", caption);
      }
      try {
        await sendWithToken(token, body);
      } catch (error) {
        reportFailure(error, FIELDS, form.setError);
        return;
      }
      showToast("success", t("messagesApi.sent"));
      form.set("medias", []);
      setInputKey((k) => k + 1);
    },
  });
  const medias = form.values.medias;
  const caption = (i: number, text: string) => form.set("medias", medias.map((m, j) => (j === i ? { ...m, caption: text } : m)));
  return (
    <FormCard title={t("messagesApi.mediaForm")} form={form} testId="api-media-form">
      <TextField form={form} name="token" label={t("messagesApi.token")} className="form-full" />
      <TextField form={form} name="number" label={t("messagesApi.number")} type="tel" placeholder="5511999999999" className="form-full" />
      <div className="field form-full">
        <label htmlFor={filesId}>{t("messagesApi.files")}</label>
        <input
          key={inputKey}
          id={filesId}
          type="file"
          multiple
          className="input"
          disabled={form.busy}
          aria-invalid={form.errors.medias ? true : undefined}
          onChange={(e) => form.set("medias", [...e.target.files ?? []].map((file) => ({ file, caption: "" })))}
        />
        {form.errors.medias && <span className="field-error" role="alert">{form.errors.medias}</span>}
      </div>
      {medias.map((m, i) => (
        <div className="field form-full" key={`${i}-${m.file.name}`}>
          <label htmlFor={`${filesId}-${i}`}>{t("messagesApi.caption", { name: m.file.name })}</label>
          <input
            id={`${filesId}-${i}`}
            className="input"
            value={m.caption}
            disabled={form.busy}
            aria-invalid={form.errors[`caption${i}`] ? true : undefined}
            onChange={(e) => {
              caption(i, e.target.value);
              form.setError(`caption${i}`, undefined);
            }}
          />
          {form.errors[`caption${i}`] && <span className="field-error" role="alert">{form.errors[`caption${i}`]}</span>}
        </div>
      ))}
    </FormCard>
  );
}
