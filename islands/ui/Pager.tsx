/**
 * The kit's page-by-page navigation for tables whose server answers numbered pages (the
 * ticket report, spec 002 §2.14: sizes 5, 10, 20, 50, 100, default 10): the page size, the
 * rows shown of the total, and previous/next. The other admin lists scroll instead
 * (DataTable's infinite scroll). The range describes the rows on screen (`shown`), not the
 * page asked for: while the next page loads it still names the rows the table draws.
 */
import { ChevronLeft, ChevronRight } from "lucide-react";
import { useId } from "react";
import { t } from "../lib/i18n.ts";

/** Props of Pager. */
export interface PagerProps {
  /** 1-based page shown. */
  page: number;
  pageSize: number;
  /** The page and size of the rows the table draws now (default: page and pageSize). */
  shown?: { page: number; pageSize: number };
  total: number;
  sizes: readonly number[];
  onPage: (page: number) => void;
  onPageSize: (size: number) => void;
  disabled?: boolean;
  testId?: string;
}

/** Page size, range and previous/next; see the module doc. */
export function Pager({ page, pageSize, shown = { page, pageSize }, total, sizes, onPage, onPageSize, disabled, testId }: PagerProps) {
  const id = useId();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const from = total === 0 ? 0 : (shown.page - 1) * shown.pageSize + 1;
  const to = Math.min(total, shown.page * shown.pageSize);
  return (
    <nav className="pager" aria-label={t("pager.pageSize")} data-testid={testId}>
      <label className="pager-size" htmlFor={id}>
        <span>{t("pager.pageSize")}</span>
        <select id={id} className="input" value={pageSize} disabled={disabled} onChange={(e) => onPageSize(Number(e.target.value))}>
          {sizes.map((n) => <option key={n} value={n}>{n}</option>)}
        </select>
      </label>
      <span className="pager-range" aria-live="polite">{t("pager.range", { from, to, total })}</span>
      <button type="button" className="icon-btn" aria-label={t("pager.previous")} title={t("pager.previous")} disabled={disabled || page <= 1} onClick={() => onPage(page - 1)}>
        <ChevronLeft size={18} aria-hidden="true" />
      </button>
      <button type="button" className="icon-btn" aria-label={t("pager.next")} title={t("pager.next")} disabled={disabled || page >= pages} onClick={() => onPage(page + 1)}>
        <ChevronRight size={18} aria-hidden="true" />
      </button>
    </nav>
  );
}
