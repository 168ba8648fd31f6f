/** Loading skeletons, empty states and error states with a retry, shared by every list. */
import type { ReactNode } from "react";
import { RotateCcw } from "lucide-react";
import { t } from "../lib/i18n.ts";

/** `rows` grey placeholder lines while a list loads. */
export function Skeleton({ rows = 4 }: { rows?: number }) {
  return (
    <div className="skeleton-list" aria-busy="true" aria-label={t("common.loading")}>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="skeleton-row">
          <span className="skeleton skeleton-avatar" />
          <span className="skeleton-lines">
            <span className="skeleton skeleton-line" />
            <span className="skeleton skeleton-line short" />
          </span>
        </div>
      ))}
    </div>
  );
}

/** An empty list: says what to do. */
export function EmptyState({ text, icon }: { text: string; icon?: ReactNode }) {
  return (
    <div className="empty-state" role="note">
      {icon}
      <p>{text}</p>
    </div>
  );
}

/** A failed load with a retry button. */
export function ErrorState({ onRetry, text }: { onRetry: () => void; text?: string }) {
  return (
    <div className="error-state" role="alert">
      <p>{text ?? t("common.loadError")}</p>
      <button type="button" className="btn" onClick={onRetry}>
        <RotateCcw size={16} aria-hidden="true" /> {t("common.retry")}
      </button>
    </div>
  );
}
