/**
 * The ticket report's reads (spec 002 §2.14) from the desk's in-memory index (index.ts): the
 * narrowest candidates the filter allows (one ticket, a contact's tickets, the lists of the
 * named users or queues per status, the smallest tag set, the groups; else every status
 * list), one tight pass that counts the matches and keeps the page in a sorted window, never
 * a scan of KV and never a sort of every match for a page.
 */
import {
  byCreatedDesc,
  reportMatcher,
  type TicketReportFilter,
} from "../../domain/ticket_report.ts";
import type { Ticket, TicketStatus } from "../../domain/ticket.ts";
import { STATUSES, type TicketIndex } from "./index.ts";

/** One page of the report: the tickets in report order and how many match in all. */
export interface ReportPage {
  tickets: Ticket[];
  total: number;
}

/** A visit over candidate tickets; the same ticket may come twice only through `ids`. */
type Candidates =
  | { kind: "ids"; ids: Iterable<number> }
  | { kind: "lists"; lists: Array<{ buffer: readonly (Ticket | undefined)[]; offset: number; length: number }> };

function statusesOf(q: TicketReportFilter): { statuses: TicketStatus[]; groupsToo: boolean } {
  const named = q.status.filter((s): s is TicketStatus => s !== "group");
  const groupsToo = q.status.includes("group");
  // Only "group": the groups of every status.
  return { statuses: q.status.length === 0 || named.length === 0 ? [...STATUSES] : named, groupsToo };
}

/** The narrowest set of tickets that holds every match (see the module doc). */
function candidatesFor(index: TicketIndex, q: TicketReportFilter, searchIds?: ReadonlySet<number>): Candidates {
  if (q.ticketId !== undefined) return { kind: "ids", ids: [q.ticketId] };
  const { statuses, groupsToo } = statusesOf(q);
  const onlyGroups = q.status.length > 0 && q.status.every((s) => s === "group");
  const sets: Array<{ size: number; ids: Iterable<number> }> = [];
  if (searchIds) sets.push({ size: searchIds.size, ids: searchIds });
  if (q.contactId !== undefined) {
    const ids = index.byContact.get(q.contactId) ?? new Set<number>();
    sets.push({ size: ids.size, ids });
  }
  // A ticket of "any of the tags": the union is only a candidate set when one tag is named.
  if (q.tags.length === 1) {
    const ids = index.byTag.get(q.tags[0]) ?? new Set<number>();
    sets.push({ size: ids.size, ids });
  }
  const smallest = sets.sort((a, b) => a.size - b.size)[0];
  // Group tickets may have any user or queue: the per-user and per-queue lists hold them
  // too, so they narrow as well; "group" alone reads the groups' lists.
  const lists: Candidates & { kind: "lists" } = { kind: "lists", lists: [] };
  const add = (list: { buffer: readonly (Ticket | undefined)[]; offset: number; length: number } | undefined) => {
    if (list && list.length > 0) lists.lists.push(list);
  };
  let listSize = 0;
  if (onlyGroups) for (const s of STATUSES) add(index.groups[s]);
  else if (q.users.length && !groupsToo) {
    for (const s of statuses) for (const u of q.users) add(index.byUser[s].get(u));
  } else if (q.queueIds.length && !groupsToo) {
    for (const s of statuses) for (const id of q.queueIds) add(index.byQueue[s].get(id));
  } else {
    for (const s of groupsToo ? STATUSES : statuses) add(index.all[s]);
  }
  for (const l of lists.lists) listSize += l.length;
  if (smallest && smallest.size < listSize) return { kind: "ids", ids: smallest.ids };
  return lists;
}

/**
 * Visits every ticket that matches `q` (each once: the candidate lists of one query never
 * overlap, since a ticket has one status, one user and one queue).
 */
export function visitReport(
  index: TicketIndex,
  q: TicketReportFilter,
  visit: (t: Ticket) => void,
  searchIds?: ReadonlySet<number>,
): void {
  const matches = reportMatcher(q, searchIds);
  const candidates = candidatesFor(index, q, searchIds);
  if (candidates.kind === "ids") {
    for (const id of candidates.ids) {
      const t = index.byId.get(id);
      if (t && matches(t)) visit(t);
    }
    return;
  }
  for (const { buffer, offset, length } of candidates.lists) {
    for (let i = offset; i < offset + length; i++) {
      const t = buffer[i]!;
      if (matches(t)) visit(t);
    }
  }
}

/** Past this many rows a page sorts every match once instead of keeping a window. */
const DEEP_PAGE = 500;

/** Page `page` (1-based) of `size` rows and the total, in report order. */
export function reportPage(
  index: TicketIndex,
  q: TicketReportFilter,
  page: number,
  size: number,
  searchIds?: ReadonlySet<number>,
): ReportPage {
  const end = page * size;
  if (end > DEEP_PAGE) {
    const all = reportAll(index, q, searchIds);
    return { tickets: all.slice((page - 1) * size, end), total: all.length };
  }
  // A sorted window of the first `end` matches: one comparison for most tickets.
  const best: Ticket[] = [];
  let total = 0;
  visitReport(index, q, (t) => {
    total++;
    if (best.length === end && byCreatedDesc(t, best[end - 1]) >= 0) return;
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (byCreatedDesc(best[mid], t) <= 0) lo = mid + 1;
      else hi = mid;
    }
    best.splice(lo, 0, t);
    if (best.length > end) best.pop();
  }, searchIds);
  return { tickets: best.slice((page - 1) * size, end), total };
}

/** Every match in report order (the export). */
export function reportAll(
  index: TicketIndex,
  q: TicketReportFilter,
  searchIds?: ReadonlySet<number>,
): Ticket[] {
  const all: Ticket[] = [];
  visitReport(index, q, (t) => all.push(t), searchIds);
  return all.sort(byCreatedDesc);
}
