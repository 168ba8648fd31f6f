/**
 * One section of the AI module page: a card with its title, what it is for, the fields in the
 * kit's form grid and its own save button (each section saves alone, as the spec's three
 * sections do), in the card's header. A refused value is said at its field and, as spec 002 §5 asks, in a toast.
 */
import { type FormEvent, type ReactNode, useId } from "react";
import { t } from "../lib/i18n.ts";
import { showToast } from "../lib/toast.ts";
import type { SchemaForm } from "../ui/form.tsx";
import { loadSchemas, type SchemaName } from "../ui/schemas.ts";
import { AI_TEXTS } from "../../domain/ai_module.ts";
import type { LocaleKey } from "../locales/pt.ts";

/** The schema texts (pt, the spec's) in the viewer's language, for the §5 toast. */
const TOAST_TEXTS: Record<string, LocaleKey> = {
  [AI_TEXTS.url]: "aiModule.invalidUrl",
  [AI_TEXTS.instructions]: "aiModule.needInstructions",
  [AI_TEXTS.data]: "aiModule.needData",
  [AI_TEXTS.model]: "aiModule.needModel",
};

/** A schema message as the toast says it. */
function invalidText(message: string): string {
  const key = TOAST_TEXTS[message];
  return key ? t(key) : message;
}

/** Props of AiSection. */
export interface AiSectionProps<V> {
  title: string;
  hint: string;
  form: SchemaForm<V>;
  /** The schema the form checks with (the first refusal is toasted). */
  schema: SchemaName;
  canEdit: boolean;
  children: ReactNode;
  /** Buttons beside the save button. */
  extra?: ReactNode;
  testId: string;
}

/** A titled card around one section's form. */
export function AiSection<V>({ title, hint, form, schema, canEdit, children, extra, testId }: AiSectionProps<V>) {
  const id = useId();
  const formId = useId();
  async function submit(event: FormEvent) {
    event.preventDefault();
    try {
      const checked = (await loadSchemas())[schema].safeParse(form.values);
      if (!checked.success) showToast("error", invalidText(checked.error.issues[0].message));
    } catch { /* The schema chunk failed to load: the form and the server still check. */ }
    await form.submit();
  }
  // The buttons sit in the header, above the fields: a message a field shows on blur must not
  // move the button the pointer is pressing (the click would be lost).
  return (
    <section className="card ai-section" aria-labelledby={id} data-testid={testId}>
      <header className="ai-section-head">
        <h2 id={id}>{title}</h2>
        <div className="ai-actions">
          {extra}
          {canEdit && (
            <button type="submit" form={formId} className="btn btn-primary" disabled={form.busy} aria-busy={form.busy} data-testid={`${testId}-save`}>
              {form.busy ? t("common.saving") : t("common.save")}
            </button>
          )}
        </div>
      </header>
      <p className="ai-hint">{hint}</p>
      <form id={formId} className="form-grid" onSubmit={submit} noValidate>
        {children}
      </form>
    </section>
  );
}
