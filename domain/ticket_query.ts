/**
 * The ticket list queries (GET /tickets, /ticketsCount, /tickets/kanban; spec 000 §7,
 * 002 §3) and the pure rule that says which tickets a list shows to whom.
 *
 * List semantics on top of `canSeeTicket` (spec 000 §2, §6): with show-all (admin and
 * supervisor only) a list shows every ticket the principal can see; without it, a list shows
 * the principal's own tickets, visible groups, and, outside the open status, the tickets of
 * its queues and those without a queue (an open ticket of another user is in that user's
 * list, not in mine).
 *
 * Dates: a bare `YYYY-MM-DD` means that whole UTC day; a full ISO date-time is taken as is.
 * `date` and `dateFrom`/`dateUntil` filter on creation time, `updatedAt` on update time.
 */
import { z } from "zod";
import { isManager, type Principal } from "./permissions.ts";
import type { Ticket, TicketStatus } from "./ticket.ts";
import { TicketStatus as StatusSchema } from "./ticket.ts";
import { Flag, MAX, MSG } from "./text.ts";
import { canSeeTicket, type TicketVisibilityFacts, type VisibilitySettings } from "./visibility.ts";

/** The list page size of spec 000 §9. */
export const PAGE_SIZE = 25;

/** A list of ids given as a JSON array (`[1,2]`), a repeated key, or comma-separated text. */
export const IdList = z.preprocess((raw) => {
  const parts = Array.isArray(raw) ? raw : [raw];
  const out: unknown[] = [];
  for (const part of parts) {
    if (part === undefined || part === null || part === "") continue;
    if (typeof part === "string") {
      let parsed: unknown = undefined;
      try {
        parsed = JSON.parse(part);
      } catch { /* not JSON: comma-separated */ }
      if (Array.isArray(parsed)) out.push(...parsed);
      else if (typeof parsed === "number") out.push(parsed);
      else out.push(...part.split(",").map((s) => s.trim()).filter(Boolean));
    } else out.push(part);
  }
  return out.map((v) => (typeof v === "object" && v !== null && "id" in v ? v.id : v));
}, z.array(z.coerce.number().int().positive()).max(MAX.list, MSG.tooLong));

/** A date filter as text (see dateRange); "", "null" and "undefined" mean none. */
const optionalDate = z.preprocess(
  (v) => (v === "" || v === "null" || v === "undefined" ? undefined : v),
  z.string().max(MAX.date, MSG.tooLong).optional(),
);

const optionalFlag = z.preprocess(
  (v) => (v === "" || v === "null" || v === "undefined" ? undefined : v),
  Flag.optional(),
);

/** `limit`/`rowsQuantity`: a page size, or 'all' (returned as Infinity). */
const RowCount = z.preprocess(
  (v) => (v === "" || v === undefined ? undefined : v),
  z.union([z.literal("all").transform(() => Infinity), z.coerce.number().int().min(1).max(10_000)])
    .optional(),
);

/** GET /tickets query (spec 000 §7). */
export const TicketListQuery = z.object({
  searchParam: z.string().trim().max(200).default(""),
  pageNumber: z.coerce.number().int().min(1).catch(1).default(1),
  tags: IdList.default([]),
  users: IdList.default([]),
  queueIds: IdList.default([]),
  whatsappIds: IdList.default([]),
  status: z.preprocess((v) => (v === "" ? undefined : v), StatusSchema.optional()),
  date: optionalDate,
  updatedAt: optionalDate,
  showAll: optionalFlag,
  isGroup: optionalFlag,
  withUnreadMessages: optionalFlag,
  dateFrom: optionalDate,
  dateUntil: optionalDate,
  orderBy: z.enum(["updatedAt", "createdAt", "id", "latestCreatedAt"]).catch("updatedAt")
    .default("updatedAt"),
  order: z.preprocess(
    (v) => (typeof v === "string" ? v.toUpperCase() : v),
    z.enum(["ASC", "DESC"]).catch("DESC"),
  ).default("DESC"),
  limit: RowCount,
  rowsQuantity: RowCount,
});
export type TicketListQuery = z.infer<typeof TicketListQuery>;

/** GET /tickets/kanban query (spec 002 §3). */
export const TicketKanbanQuery = TicketListQuery.pick({
  showAll: true,
  searchParam: true,
  users: true,
  queueIds: true,
  dateFrom: true,
  dateUntil: true,
});
export type TicketKanbanQuery = z.infer<typeof TicketKanbanQuery>;

/** The page size a query asks for (Infinity for 'all'). */
export function pageSize(q: Pick<TicketListQuery, "limit" | "rowsQuantity">): number {
  return q.limit ?? q.rowsQuantity ?? PAGE_SIZE;
}

/** Whether a query asks for every visible ticket (admin and supervisor only). */
export function showsAll(q: { showAll?: boolean }, who: Pick<Principal, "profile">): boolean {
  return q.showAll === true && isManager(who);
}

/** Whether `ticket` belongs in a list of `who` (see the module doc). */
export function inList(
  ticket: TicketVisibilityFacts,
  who: Pick<Principal, "id" | "profile" | "queueIds">,
  settings: VisibilitySettings,
  showAll: boolean,
): boolean {
  if (!canSeeTicket(who, ticket, settings)) return false;
  if (showAll || ticket.userId === who.id || ticket.isGroup) return true;
  if (ticket.status === "open") return false;
  return ticket.queueId === null || who.queueIds.includes(ticket.queueId);
}

/** [start, end) in ms of a date filter value; undefined when absent or unreadable. */
export function dateRange(value: string | undefined): [number, number] | undefined {
  if (!value) return undefined;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const start = Date.parse(`${value}T00:00:00Z`);
    return Number.isNaN(start) ? undefined : [start, start + 86_400_000];
  }
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : [at, at + 1];
}

/** Bounds of `dateFrom`/`dateUntil` (inclusive whole days for bare dates). */
export function periodRange(from?: string, until?: string): [number, number] | undefined {
  if (!from && !until) return undefined;
  const start = dateRange(from)?.[0] ?? -Infinity;
  const end = dateRange(until)?.[1] ?? Infinity;
  return [start, end];
}

/** The filters of a list query other than visibility, as one predicate. */
export function queryFilter(q: Partial<TicketListQuery>): (t: Ticket) => boolean {
  const checks: Array<(t: Ticket) => boolean> = [];
  const status: TicketStatus | undefined = q.status;
  if (status) checks.push((t) => t.status === status);
  if (q.users?.length) {
    const users = new Set(q.users);
    checks.push((t) => t.userId !== null && users.has(t.userId));
  }
  if (q.queueIds?.length) {
    const queues = new Set(q.queueIds);
    checks.push((t) => t.queueId !== null && queues.has(t.queueId));
  }
  if (q.whatsappIds?.length) {
    const conns = new Set(q.whatsappIds);
    checks.push((t) => t.whatsappId !== null && conns.has(t.whatsappId));
  }
  if (q.tags?.length) {
    const tags = q.tags;
    checks.push((t) => tags.every((id) => t.tagIds.includes(id)));
  }
  if (q.isGroup !== undefined) checks.push((t) => t.isGroup === q.isGroup);
  if (q.withUnreadMessages) checks.push((t) => t.unreadMessages > 0);
  const created = dateRange(q.date);
  if (created) checks.push((t) => t.createdAt >= created[0] && t.createdAt < created[1]);
  const updated = dateRange(q.updatedAt);
  if (updated) checks.push((t) => t.updatedAt >= updated[0] && t.updatedAt < updated[1]);
  const period = periodRange(q.dateFrom, q.dateUntil);
  if (period) checks.push((t) => t.createdAt >= period[0] && t.createdAt < period[1]);
  if (checks.length === 0) return () => true;
  return (t) => checks.every((check) => check(t));
}

/** Whether the filter of `q` is empty, so a whole index list matches (count = its length). */
export function filterIsEmpty(q: Partial<TicketListQuery>): boolean {
  return !q.users?.length && !q.queueIds?.length && !q.whatsappIds?.length && !q.tags?.length &&
    q.isGroup === undefined && !q.withUnreadMessages && !q.date && !q.updatedAt &&
    !q.dateFrom && !q.dateUntil;
}

/** Orders tickets by updatedAt (then id), newest first: the order of every index list. */
export function byRecency(a: Ticket, b: Ticket): number {
  return b.updatedAt - a.updatedAt || b.id - a.id;
}
