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
import type { TicketVisibilityFacts, VisibilitySettings } from "../../domain/visibility.ts";
import { GROUP_BIT, NONE, type TicketColumns } from "./columns.ts";
import { NO_QUEUE, STATUSES, type TicketIndex } from "./index.ts";
import { type SortedTickets, visitMerged } from "./sorted.ts";

/** The query fields the engine reads (list, count and kanban queries share it). */
export type TicketQuery = Partial<TicketListQuery> & { statuses?: readonly TicketStatus[] };

/** A page of tickets; pages may be shared between requests (cached), so never changed. */
export interface TicketPage {
  readonly tickets: readonly Ticket[];
  readonly count: number;
  readonly hasMore: boolean;
}

type Who = Pick<Principal, "id" | "profile" | "queueIds">;

/** One index list a query reads, and the test of membership in it (for counting once). */
interface Source {
  list: SortedTickets;
  has: (t: Ticket) => boolean;
}

function sourcesFor(index: TicketIndex, q: TicketQuery, who: Who, all: boolean): Source[] {
  const statuses = q.statuses ?? (q.status ? [q.status] : STATUSES);
  const out: Source[] = [];
  const push = (list: SortedTickets | undefined, has: (t: Ticket) => boolean) => {
    if (list && list.length > 0) out.push({ list, has });
  };
  for (const s of statuses) {
    const byUser = (u: number) =>
      push(index.byUser[s].get(u), (t) => t.status === s && t.userId === u);
    const byQueue = (id: number) =>
      push(index.byQueue[s].get(id), (t) => t.status === s && (t.queueId ?? NO_QUEUE) === id);
    const groups = () => push(index.groups[s], (t) => t.status === s && t.isGroup);
    if (q.isGroup === true) groups();
    else if (all) {
      if (q.users?.length) q.users.forEach(byUser);
      else if (q.queueIds?.length) q.queueIds.forEach(byQueue);
      else push(index.all[s], (t) => t.status === s);
    } else {
      byUser(who.id);
      groups();
      if (s !== "open") {
        byQueue(NO_QUEUE);
        who.queueIds.forEach(byQueue);
      }
    }
  }
  return out;
}

/**
 * How many tickets of `sources` match, each counted in the first source that has it: a
 * tight loop per list, no merge.
 */
function countIn(sources: Source[], matches: (t: Ticket) => boolean): number {
  let count = 0;
  for (let j = 0; j < sources.length; j++) {
    for (const chunk of sources[j].list.chunks) {
      for (let i = 0; i < chunk.length; i++) {
        const t = chunk[i];
        let seen = false;
        for (let e = 0; e < j && !seen; e++) seen = sources[e].has(t);
        if (!seen && matches(t)) count++;
      }
    }
  }
  return count;
}

/** What a count depends on: the principal, the visibility settings and the filters. */
function countKey(q: TicketQuery, who: Who, settings: VisibilitySettings, all: boolean): string {
  const { pageNumber: _p, limit: _l, rowsQuantity: _r, order: _o, orderBy: _b, ...filters } = q;
  return JSON.stringify([
    who.id,
    who.profile,
    who.queueIds,
    settings.viewclosed,
    settings.viewgroups,
    settings.allusersviewgroups,
    all,
    filters,
  ]);
}

function compareBy(q: TicketQuery): (a: Ticket, b: Ticket) => number {
  const sign = q.order === "ASC" ? 1 : -1;
  const field = q.orderBy ?? "updatedAt";
  return (a, b) => sign * (((a[field] ?? 0) - (b[field] ?? 0)) || a.id - b.id);
}

/**
 * The first `k` of `items` in `compare` order, sorted. A page of many matches keeps only a
 * sorted window of `k` (one comparison for most items) instead of sorting every match.
 */
export function firstInOrder<T>(items: T[], compare: (a: T, b: T) => number, k: number): T[] {
  if (k * 4 >= items.length) return items.sort(compare);
  const best: T[] = [];
  for (const item of items) {
    if (best.length === k) {
      if (compare(item, best[k - 1]) >= 0) continue;
      best.pop();
    }
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(best[mid], item) <= 0) lo = mid + 1;
      else hi = mid;
    }
    best.splice(lo, 0, item);
  }
  return best;
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
  if (searchIds) return searchPage(index, q, who, settings, searchIds) ?? walkPage(index, q, who, settings, searchIds);
  // Without a search the page depends only on the lists, the principal, the settings and the
  // query: kept until the next change (TicketIndex.cachedPage).
  const all = showsAll(q, who);
  // The page size as text: JSON would write rowsQuantity=all's Infinity as null, as if absent.
  const key = `${countKey(q, who, settings, all)}|${q.pageNumber ?? 1}|${pageSize(q)}|${q.order}|${q.orderBy}`;
  return index.cachedPage(key, () => walkPage(index, q, who, settings));
}

/** Where `q`'s page starts and ends among the matches (rowsQuantity=all: all of them). */
function pageWindow(q: TicketQuery): { offset: number; end: number } {
  const size = pageSize(q);
  const offset = size === Infinity ? 0 : ((q.pageNumber ?? 1) - 1) * size;
  return { offset, end: offset + size };
}

/** The columns (columns.ts) a search's matches can be ordered by, by `orderBy`. */
function sortColumn(columns: TicketColumns, orderBy: TicketQuery["orderBy"]): Float64Array | "id" | undefined {
  if (orderBy === undefined || orderBy === "updatedAt") return columns.updated;
  if (orderBy === "createdAt") return columns.created;
  if (orderBy === "id") return "id";
  return undefined;
}

/**
 * The page of a search from the columns (columns.ts): which of `searchIds` `who` may see in
 * this list, their count and their order, reading only the page's records. Why: a common
 * word matches ~1% of the tickets, 10,000 scattered over a million records at 10x, and
 * reading each one's status, owner and date was two or three cache misses a ticket, 5-6 ms of
 * a 7 ms search (issue #23 §3). What a list with no filter but the status decides (status,
 * user, queue, group: `inList`) and the orders but `latestCreatedAt` are all in the columns.
 * Undefined for other queries, which `walkPage` answers from the records.
 */
function searchPage(
  index: TicketIndex,
  q: TicketQuery,
  who: Who,
  settings: VisibilitySettings,
  searchIds: ReadonlySet<number>,
): TicketPage | undefined {
  const { columns } = index;
  const key = sortColumn(columns, q.orderBy);
  if (key === undefined || !filterIsEmpty(q)) return undefined;
  const all = showsAll(q, who);
  const statuses = q.statuses ? new Set(q.statuses) : undefined;
  const facts: TicketVisibilityFacts = { status: "open", userId: null, queueId: null, isGroup: false };
  const found: number[] = [];
  for (const id of searchIds) {
    if (!columns.has(id)) continue;
    const flags = columns.flags[id];
    const status = STATUSES[(flags & 3) - 1];
    if ((q.status && status !== q.status) || (statuses && !statuses.has(status))) continue;
    const user = columns.user[id];
    const queue = columns.queue[id];
    facts.status = status;
    facts.userId = user === NONE ? null : user;
    facts.queueId = queue === NONE ? null : queue;
    facts.isGroup = (flags & GROUP_BIT) !== 0;
    if (inList(facts, who, settings, all)) found.push(id);
  }
  const sign = q.order === "ASC" ? 1 : -1;
  const compare = key === "id"
    ? (a: number, b: number) => sign * (a - b)
    : (a: number, b: number) => sign * ((key[a] - key[b]) || a - b);
  const { offset, end } = pageWindow(q);
  const tickets = firstInOrder(found, compare, end).slice(offset, end).map((id) => index.byId.get(id)!);
  return { tickets, count: found.length, hasMore: end < found.length };
}

/** `queryTickets` without its cache. */
function walkPage(
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
  const { offset, end } = pageWindow(q);

  const recencyOrder = (q.orderBy ?? "updatedAt") === "updatedAt";
  if (searchIds) {
    const found: Ticket[] = [];
    for (const id of searchIds) {
      const t = index.byId.get(id);
      if (t && matches(t)) found.push(t);
    }
    const first = firstInOrder(found, compareBy(q), end);
    return { tickets: first.slice(offset, end), count: found.length, hasMore: end < found.length };
  }
  const sources = sourcesFor(index, q, who, all);
  const ascending = q.order === "ASC";
  const lists = sources.map((s) => s.list);
  if (all && sources.length === 1 && recencyOrder && !statuses && filterIsEmpty(q) && q.isGroup !== true) {
    // Show-all with no filter: a manager sees the whole list.
    const list = lists[0];
    const count = list.length;
    // Lists are oldest first (sorted.ts).
    const tickets = ascending
      ? list.slice(offset, end)
      : list.slice(Math.max(0, count - end), count - offset).reverse();
    return { tickets, count, hasMore: end < count };
  }
  if (!recencyOrder) {
    const everything: Ticket[] = [];
    visitMerged(lists, false, (t) => {
      if (matches(t)) everything.push(t);
    });
    everything.sort(compareBy(q));
    return {
      tickets: everything.slice(offset, end),
      count: everything.length,
      hasMore: end < everything.length,
    };
  }
  // The page: walk the merged lists only as far as the page's end.
  const tickets: Ticket[] = [];
  let seen = 0;
  visitMerged(lists, ascending, (t) => {
    if (!matches(t)) return;
    if (seen >= offset) tickets.push(t);
    seen++;
    return seen < end;
  });
  const count = index.cachedCount(
    countKey(q, who, settings, all),
    () => countIn(sources, matches),
  );
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
