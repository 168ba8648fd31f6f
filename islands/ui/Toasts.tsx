/** The toast stack (bottom right), fed by lib/toast.ts through the page's toasts atom. */
import { X } from "lucide-react";
import { dismissToast, type Toast, toastsAtom } from "../lib/toast.ts";
import { t } from "../lib/i18n.ts";
import { useHydratedAtomValue } from "../lib/page_store.ts";

const NONE: Toast[] = [];

/** Renders the current toasts; polite live region for screen readers. */
export function Toasts() {
  const toasts = useHydratedAtomValue(toastsAtom, NONE);
  return (
    <div className="toasts" role="status" aria-live="polite">
      {toasts.map((toast) => (
        <div key={toast.key} className={`toast toast-${toast.kind}`} data-testid="toast">
          <span>{toast.text}</span>
          <button type="button" className="icon-btn" aria-label={t("common.close")} onClick={() => dismissToast(toast.key)}>
            <X size={16} />
          </button>
        </div>
      ))}
    </div>
  );
}
