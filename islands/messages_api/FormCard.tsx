/**
 * An inline form in a card (the kit's FormDialog is a modal; these test forms sit on the
 * page): a title, the fields in the kit's form grid and one submit button disabled while busy.
 * Also what both forms do with a refusal: field errors go back to the form, anything else is
 * a toast with the catalogue text (or the API's own message, e.g. the plan's upgrade text).
 */
import { type ReactNode, useId } from "react";
import { ApiError } from "../lib/api.ts";
import { hasText, t } from "../lib/i18n.ts";
import { showToast } from "../lib/toast.ts";
import type { SchemaForm } from "../ui/form.tsx";

/** A titled card around an inline form. */
export function FormCard<V>({ title, form, children, testId }: { title: string; form: SchemaForm<V>; children: ReactNode; testId: string }) {
  const id = useId();
  return (
    <section className="api-card" aria-labelledby={id} data-testid={testId}>
      <h2 id={id}>{title}</h2>
      <form className="form-grid" onSubmit={form.submit} noValidate>
        {children}
        <div className="form-full api-actions">
          <button type="submit" className="btn btn-primary" disabled={form.busy} aria-busy={form.busy}>
            {form.busy ? t("common.saving") : t("messagesApi.send")}
          </button>
        </div>
      </form>
    </section>
  );
}

/**
 * Re-throws a refusal naming `fields` of the form (shown at the inputs); a token no connection
 * has (401) is said at the token field, not as the session's expiry; toasts any other.
 */
export function reportFailure(
  error: unknown,
  fieldNames: readonly string[],
  setError: (name: string, text: string) => void,
): void {
  const body = error instanceof ApiError ? error.body as { error?: string; message?: string; fields?: Record<string, string> } | null : null;
  if (body?.fields && Object.keys(body.fields).some((k) => fieldNames.includes(k))) throw error;
  if (error instanceof ApiError && error.status === 401) return setError("token", t("messagesApi.badToken"));
  const key = `backendErrors.${body?.error ?? ""}`;
  const text = body?.error && hasText(key) ? t(key) : body?.message ?? t("backendErrors.generic");
  showToast("error", text);
}
