/**
 * The report page's filters as the form holds them, and as GET /ticketreport/reports reads
 * them (spec 002 §7). Dates: the form's days are the reader's local days, sent as the ISO
 * instants of their first and last millisecond, so "today" means the reader's today.
 */
import { query } from "../lib/api.ts";
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

/** The ISO instant of the start (or the last millisecond) of local day `day` (YYYY-MM-DD). */
export function localDayBound(day: string, end: boolean): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const [y, m, d] = day.split("-").map(Number);
  const at = end ? new Date(y, m - 1, d, 23, 59, 59, 999) : new Date(y, m - 1, d, 0, 0, 0, 0);
  return at.toISOString();
}

/** The query string of `f` (without page) for the report and its export. */
export function filterQuery(f: ReportFilters, extra: Record<string, string | number> = {}): string {
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
    dateFrom: localDayBound(f.dateFrom, false),
    dateTo: localDayBound(f.dateTo, true),
    ...extra,
  });
}
