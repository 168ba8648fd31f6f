/**
 * Bulk ticket actions through PUT /tickets/multiUpdate: the server applies the same change
 * to each ticket with the same rules as one at a time and answers which were updated and
 * which failed (with the reason). The outcome becomes one toast.
 */
import { api } from "../lib/api.ts";
import { hasText, t } from "../lib/i18n.ts";
import { showToast, toastError } from "../lib/toast.ts";

/** The answer of PUT /tickets/multiUpdate. */
export interface BulkOutcome {
  updated: number[];
  failed: Array<{ id: number; error: string; message: string }>;
}

/** Applies `body` to every ticket of `ids`; null when the request itself failed. */
export async function bulkUpdate(ids: number[], body: Record<string, unknown>): Promise<BulkOutcome | null> {
  try {
    const outcome = await api<BulkOutcome>("PUT", "/tickets/multiUpdate", { ticketIds: ids, ...body });
    report(outcome);
    return outcome;
  } catch (error) {
    toastError((error as { body?: unknown }).body ?? error);
    return null;
  }
}

function report({ updated, failed }: BulkOutcome): void {
  if (failed.length === 0) {
    showToast("success", t("bulk.done", { count: updated.length }), "bulk");
    return;
  }
  const reason = (f: BulkOutcome["failed"][number]) => {
    const key = `backendErrors.${f.error}`;
    return hasText(key) ? t(key) : f.message;
  };
  const details = failed.slice(0, 5).map((f) => `#${f.id}: ${reason(f)}`).join("; ");
  showToast("error", t("bulk.partial", { updated: updated.length, failed: failed.length, details }), "bulk");
}
