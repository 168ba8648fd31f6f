/**
 * Answers the ticket list queries from the in-memory index (index.ts): picks the few sorted
 * lists that can hold matching tickets (the principal's own list, its queues' lists, the
 * groups; or the whole status list with show-all), walks them merged in order, and keeps
 * the page while counting the matches. With show-all and no filter the count is the list's
 * length and the page is a slice.
 */
import type { Principal } from "../../domain/permissions.ts";
import type { Ticket, TicketStatus } from "../../domain/ticket.ts";
import {
  filterIsEmpty,
  inList,
  pageSize,
  queryFilter,
  showsAll,
  type TicketListQuery,
} from "../../domain/ticket_query.ts";
import type { VisibilitySettings } from "../../domain/visibility.ts";
import { NO_QUEUE, STATUSES, type TicketIndex } from "./index.ts";
import { mergeSorted, type SortedTickets } from "./sorted.ts";

/** The query fields the engine reads (list, count and kanban queries share it). */
export type TicketQuery = Partial<TicketListQuery> & { statuses?: readonly TicketStatus[] };

export interface TicketPage {
  tickets: Ticket[];
  count: number;
  hasMore: boolean;
}

type Who = Pick<Principal, "id" | "profile" | "queueIds">;

function sourcesFor(index: TicketIndex, q: TicketQuery, who: Who, all: boolean): SortedTickets[] {
  const statuses = q.statuses ?? (q.status ? [q.status] : STATUSES);
  const out: SortedTickets[] = [];
  const push = (list: SortedTickets | undefined) => list && out.push(list);
  for (const s of statuses) {
    if (q.isGroup === true) {
      push(index.groups[s]);
    } else if (all) {
      if (q.users?.length) for (const u of q.users) push(index.byUser[s].get(u));
      else if (q.queueIds?.length) for (const id of q.queueIds) push(index.byQueue[s].get(id));
      else push(index.all[s]);
    } else {
      push(index.byUser[s].get(who.id));
      push(index.groups[s]);
      if (s !== "open") {
        push(index.byQueue[s].get(NO_QUEUE));
        for (const id of who.queueIds) push(index.byQueue[s].get(id));
      }
    }
  }
  return out;
}

function compareBy(q: TicketQuery): (a: Ticket, b: Ticket) => number {
  const sign = q.order === "ASC" ? 1 : -1;
  const field = q.orderBy ?? "updatedAt";
  return (a, b) => sign * (((a[field] ?? 0) - (b[field] ?? 0)) || a.id - b.id);
}

/**
 * One page of the tickets `who` may see that match `q`. `searchIds`, when given, restricts
 * the result to those tickets (the search tab's matches by contact and message text).
 */
export function queryTickets(
  index: TicketIndex,
  q: TicketQuery,
  who: Who,
  settings: VisibilitySettings,
  searchIds?: ReadonlySet<number>,
): TicketPage {
  const all = showsAll(q, who);
  const filter = queryFilter(q);
  const statuses = q.statuses ? new Set(q.statuses) : undefined;
  const matches = (t: Ticket) =>
    (!statuses || statuses.has(t.status)) && filter(t) && inList(t, who, settings, all);
  const size = pageSize(q);
  const offset = size === Infinity ? 0 : ((q.pageNumber ?? 1) - 1) * size;
  const end = offset + size;

  const byRecency = (q.orderBy ?? "updatedAt") === "updatedAt";
  let ordered: Iterable<Ticket>;
  if (searchIds) {
    const found: Ticket[] = [];
    for (const id of searchIds) {
      const t = index.byId.get(id);
      if (t && matches(t)) found.push(t);
    }
    found.sort(compareBy(q));
    return { tickets: found.slice(offset, end), count: found.length, hasMore: end < found.length };
  }
  const sources = sourcesFor(index, q, who, all);
  if (all && sources.length === 1 && byRecency && !statuses && filterIsEmpty(q) && q.isGroup !== true) {
    // Show-all with no filter: a manager sees the whole list.
    const items = sources[0].items;
    const count = items.length;
    const tickets = q.order === "ASC"
      ? items.slice(Math.max(0, count - end), count - offset).reverse()
      : items.slice(offset, end);
    return { tickets, count, hasMore: end < count };
  }
  if (byRecency) ordered = mergeSorted(sources, q.order === "ASC");
  else {
    const everything: Ticket[] = [];
    for (const t of mergeSorted(sources, false)) if (matches(t)) everything.push(t);
    everything.sort(compareBy(q));
    return {
      tickets: everything.slice(offset, end),
      count: everything.length,
      hasMore: end < everything.length,
    };
  }
  const tickets: Ticket[] = [];
  let count = 0;
  for (const t of ordered) {
    if (!matches(t)) continue;
    if (count >= offset && count < end) tickets.push(t);
    count++;
  }
  return { tickets, count, hasMore: end < count };
}

/** How many tickets `who` may see that match `q` (no page kept). */
export function countTickets(
  index: TicketIndex,
  q: TicketQuery,
  who: Who,
  settings: VisibilitySettings,
): number {
  return queryTickets(index, { ...q, limit: 1, rowsQuantity: undefined, pageNumber: 1 }, who, settings)
    .count;
}
