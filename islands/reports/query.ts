/**
 * The report page's filters as the form holds them, and as GET /ticketreport/reports reads
 * them (spec 002 §7). Dates: the form's days are the company's days (its time zone, which the
 * report's answer names; #41), sent as the ISO instants of their first and last millisecond,
 * so "today" means the company's today wherever the reader is. Without a zone (the kanban's
 * filter), the reader's own days.
 */
import { query } from "../lib/api.ts";
import { fromWallClock } from "../../domain/zoned_time.ts";
import type { ReportStatus } from "../../domain/ticket_report.ts";
import type { Option } from "../ui/use_options.ts";

/** The filters as the form holds them. */
export interface ReportFilters {
  searchParam: string;
  ticketId: string;
  contact: Option | null;
  whatsappId: number | "";
  tags: number[];
  users: number[];
  queueIds: number[];
  status: ReportStatus[];
  dateFrom: string;
  dateTo: string;
}

/** No filter at all. */
export const NO_FILTERS: ReportFilters = {
  searchParam: "",
  ticketId: "",
  contact: null,
  whatsappId: "",
  tags: [],
  users: [],
  queueIds: [],
  status: [],
  dateFrom: "",
  dateTo: "",
};

/** The ISO instant of the start (or the last millisecond) of day `day` (YYYY-MM-DD) in `zone`, else the reader's. */
export function localDayBound(day: string, end: boolean, zone?: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const [y, m, d] = day.split("-").map(Number);
  if (zone) {
    const next = new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
    return new Date(end ? fromWallClock(next, zone) - 1 : fromWallClock(day, zone)).toISOString();
  }
  const at = end ? new Date(y, m - 1, d, 23, 59, 59, 999) : new Date(y, m - 1, d, 0, 0, 0, 0);
  return at.toISOString();
}

/** The query string of `f` (without page) for the report and its export. */
export function filterQuery(f: ReportFilters, extra: Record<string, string | number> = {}, zone?: string): string {
  const ticketId = Number(f.ticketId);
  return query({
    searchParam: f.searchParam.trim(),
    ticketId: Number.isSafeInteger(ticketId) && ticketId > 0 ? ticketId : undefined,
    contactId: f.contact?.id,
    whatsappId: f.whatsappId === "" ? undefined : f.whatsappId,
    tags: f.tags.length ? f.tags : undefined,
    users: f.users.length ? f.users : undefined,
    queueIds: f.queueIds.length ? f.queueIds : undefined,
    status: f.status.length ? f.status : undefined,
    dateFrom: localDayBound(f.dateFrom, false, zone),
    dateTo: localDayBound(f.dateTo, true, zone),
    ...extra,
  });
}
