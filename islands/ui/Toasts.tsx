/** The toast stack (bottom right), fed by lib/toast.ts. */
import { useSyncExternalStore } from "react";
import { X } from "lucide-react";
import { currentToasts, dismissToast, subscribeToasts } from "../lib/toast.ts";
import { t } from "../lib/i18n.ts";

const NONE: never[] = [];

/** Renders the current toasts; polite live region for screen readers. */
export function Toasts() {
  const toasts = useSyncExternalStore(subscribeToasts, currentToasts, () => NONE);
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
