/**
 * The report's filters (spec 002 §2.14): search text, ticket, contact (searched from 3
 * letters), connection, tags, users (managers only: a user-profile account reports its own
 * tickets, §5), queues, status (open, closed, pending, group), date from and date to. The
 * form holds a draft; Filtrar applies it, Limpar clears it.
 */
import { type FormEvent, useId, useState } from "react";
import { Filter, X } from "lucide-react";
import { t } from "../lib/i18n.ts";
import { REPORT_STATUSES, type ReportStatus } from "../../domain/ticket_report.ts";
import { MultiSelect } from "../ui/MultiSelect.tsx";
import { type Option, useOptions } from "../ui/use_options.ts";
import { ContactChips } from "../tickets/pickers.tsx";
import { SEARCH_MIN, useSearch } from "../tickets/use_search.ts";
import { NO_FILTERS, type ReportFilters } from "./query.ts";

const STATUS_TEXT = {
  open: "reports.statusOpen",
  closed: "reports.statusClosed",
  pending: "reports.statusPending",
  group: "reports.statusGroup",
} as const satisfies Record<ReportStatus, string>;

const choices = (options: Option[]) => options.map((o) => ({ value: o.id, label: o.name }));

/** Props of ReportFiltersForm. */
export interface ReportFiltersProps {
  /** Whether the users filter is shown (admin and supervisor). */
  manager: boolean;
  onApply: (filters: ReportFilters) => void;
  busy: boolean;
}

/** The filters form; see the module doc. */
export function ReportFiltersForm({ manager, onApply, busy }: ReportFiltersProps) {
  const [draft, setDraft] = useState<ReportFilters>(NO_FILTERS);
  const [contactText, setContactText] = useState("");
  const set = <K extends keyof ReportFilters>(key: K, value: ReportFilters[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const connections = useOptions("/whatsapp");
  const tags = useOptions("/tags/list");
  const queues = useOptions("/queue");
  const users = useOptions(manager ? "/users/list" : null);
  const contacts = useSearch("/contacts/", draft.contact ? "" : contactText, "contacts");
  const ids = { search: useId(), ticket: useId(), contact: useId(), connection: useId(), from: useId(), to: useId() };

  function submit(event: FormEvent) {
    event.preventDefault();
    onApply(draft);
  }
  function clear() {
    setDraft(NO_FILTERS);
    setContactText("");
    onApply(NO_FILTERS);
  }

  return (
    <form className="report-filters" onSubmit={submit} role="search" aria-label={t("reports.title")} data-testid="report-filters">
      <div className="field">
        <label htmlFor={ids.search}>{t("reports.search")}</label>
        <input id={ids.search} type="search" className="input" value={draft.searchParam} onChange={(e) => set("searchParam", e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={ids.ticket}>{t("reports.ticket")}</label>
        <input id={ids.ticket} type="number" min={1} inputMode="numeric" className="input" value={draft.ticketId} onChange={(e) => set("ticketId", e.target.value)} />
      </div>
      <div className="field report-contact">
        <label htmlFor={ids.contact}>{t("reports.contact")}</label>
        {draft.contact
          ? <ContactChips contacts={[draft.contact]} onChange={() => set("contact", null)} />
          : (
            <input
              id={ids.contact}
              type="search"
              className="input"
              placeholder={t("reports.contactHint")}
              value={contactText}
              onChange={(e) => setContactText(e.target.value)}
              autoComplete="off"
            />
          )}
        {!draft.contact && contactText.trim().length >= SEARCH_MIN && contacts.length > 0 && (
          <ul className="pick-list report-pick" aria-label={t("reports.contact")}>
            {contacts.map((c) => (
              <li key={c.id}>
                <button type="button" className="pick" onClick={() => set("contact", { id: c.id, name: c.name })}>{c.name}</button>
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="field">
        <label htmlFor={ids.connection}>{t("reports.connection")}</label>
        <select id={ids.connection} className="input" value={draft.whatsappId} onChange={(e) => set("whatsappId", e.target.value ? Number(e.target.value) : "")}>
          <option value="">{t("reports.any")}</option>
          {connections.map((w) => <option key={w.id} value={w.id}>{w.name}</option>)}
        </select>
      </div>
      <MultiSelect label={t("reports.tags")} options={choices(tags)} value={draft.tags} onChange={(v) => set("tags", v)} emptyText={t("reports.any")} testId="report-tags" />
      {manager && (
        <MultiSelect label={t("reports.users")} options={choices(users)} value={draft.users} onChange={(v) => set("users", v)} emptyText={t("reports.any")} testId="report-users" />
      )}
      <MultiSelect label={t("reports.queues")} options={choices(queues)} value={draft.queueIds} onChange={(v) => set("queueIds", v)} emptyText={t("reports.any")} testId="report-queues" />
      <MultiSelect
        label={t("reports.status")}
        options={REPORT_STATUSES.map((s) => ({ value: s, label: t(STATUS_TEXT[s]) }))}
        value={draft.status}
        onChange={(v) => set("status", v)}
        emptyText={t("reports.any")}
        testId="report-status"
      />
      <div className="field">
        <label htmlFor={ids.from}>{t("reports.dateFrom")}</label>
        <input id={ids.from} type="date" className="input" value={draft.dateFrom} onChange={(e) => set("dateFrom", e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={ids.to}>{t("reports.dateTo")}</label>
        <input id={ids.to} type="date" className="input" value={draft.dateTo} onChange={(e) => set("dateTo", e.target.value)} />
      </div>
      <div className="report-filter-actions">
        <button type="button" className="btn" onClick={clear} disabled={busy}>
          <X size={16} aria-hidden="true" /> {t("reports.clear")}
        </button>
        <button type="submit" className="btn btn-primary" disabled={busy} data-testid="report-apply">
          <Filter size={16} aria-hidden="true" /> {t("reports.filter")}
        </button>
      </div>
    </form>
  );
}
