/**
 * The board's filters (spec 002 §2.10: search, user, date from and until) as the page holds
 * them and as GET /tickets/kanban reads them. Managers always ask with showAll (spec 002 §6:
 * they see every ticket) and may narrow by users; a plain user's board is its own queues'.
 * Days are the reader's local days, sent as the ISO instants of their first and last
 * millisecond (the report's rule, reports/query.ts).
 */
import { query } from "../lib/api.ts";
import { localDayBound } from "../reports/query.ts";

/** The filters as the page holds them. */
export interface KanbanFilters {
  searchParam: string;
  users: number[];
  dateFrom: string;
  dateUntil: string;
}

/** No filter. */
export const NO_KANBAN_FILTERS: KanbanFilters = { searchParam: "", users: [], dateFrom: "", dateUntil: "" };

/** The query string of GET /tickets/kanban for `f`. */
export function kanbanQuery(f: KanbanFilters, manager: boolean): string {
  return query({
    showAll: manager ? "true" : undefined,
    searchParam: f.searchParam.trim(),
    users: manager && f.users.length ? f.users : undefined,
    dateFrom: localDayBound(f.dateFrom, false),
    dateUntil: localDayBound(f.dateUntil, true),
  });
}
