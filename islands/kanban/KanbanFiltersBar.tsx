/**
 * The board's filters beside the page's search box (spec 002 §2.10): the user filter (admin
 * and supervisor only, §6) and the date-from and date-until days. Each change applies at once.
 */
import { useId } from "react";
import { X } from "lucide-react";
import { t } from "../lib/i18n.ts";
import { MultiSelect } from "../ui/MultiSelect.tsx";
import { useOptions } from "../ui/use_options.ts";
import { type KanbanFilters, NO_KANBAN_FILTERS } from "./query.ts";

/** Props of KanbanFiltersBar. */
export interface KanbanFiltersBarProps {
  filters: KanbanFilters;
  onChange: (update: (f: KanbanFilters) => KanbanFilters) => void;
  /** Whether the user filter is shown. */
  manager: boolean;
}

/** The filters; see the module doc. */
export function KanbanFiltersBar({ filters, onChange, manager }: KanbanFiltersBarProps) {
  const users = useOptions(manager ? "/users/list" : null);
  const from = useId();
  const until = useId();
  const filtered = filters.users.length > 0 || filters.dateFrom !== "" || filters.dateUntil !== "" || filters.searchParam !== "";
  return (
    <div className="kanban-filters" role="group" aria-label={t("kanban.title")} data-testid="kanban-filters">
      {manager && (
        <MultiSelect
          label={t("kanban.users")}
          options={users.map((u) => ({ value: u.id, label: u.name }))}
          value={filters.users}
          onChange={(v) => onChange((f) => ({ ...f, users: v }))}
          emptyText={t("kanban.allUsers")}
          testId="kanban-users"
        />
      )}
      <div className="field">
        <label htmlFor={from}>{t("kanban.dateFrom")}</label>
        <input id={from} type="date" className="input" value={filters.dateFrom} onChange={(e) => onChange((f) => ({ ...f, dateFrom: e.target.value }))} />
      </div>
      <div className="field">
        <label htmlFor={until}>{t("kanban.dateUntil")}</label>
        <input id={until} type="date" className="input" value={filters.dateUntil} onChange={(e) => onChange((f) => ({ ...f, dateUntil: e.target.value }))} />
      </div>
      <button type="button" className="btn kanban-clear" onClick={() => onChange(() => NO_KANBAN_FILTERS)} disabled={!filtered}>
        <X size={16} aria-hidden="true" /> {t("kanban.clear")}
      </button>
    </div>
  );
}
