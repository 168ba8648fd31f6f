/**
 * The ticket report (spec 002 §2.14, §5, §6, §7, §9): the query of
 * `GET /ticketreport/reports` and its export, the rule that a user-profile account reports
 * only its own tickets, and the spreadsheet's columns.
 *
 * Readings chosen where the spec is silent:
 * - `status` is a list (JSON `["open","group"]`, repeated keys or comma-separated) of open,
 *   pending, closed and group. "group" is not a status here (groups have the usual statuses)
 *   but "group tickets": the list is a union, so `["open","group"]` is every open ticket
 *   and every group ticket. An empty list means every ticket.
 * - `dateFrom`/`dateTo` bound the creation time; a bare YYYY-MM-DD is that whole UTC day
 *   (as in GET /tickets), a full ISO date-time is taken as is (the page sends the reader's
 *   local day boundaries that way).
 * - Rows come newest created first (createdAt, then id, descending).
 * - The page size must be one of 5, 10, 20, 50, 100: the 9,999,999 of the original client's
 *   export is refused; the export is its own streamed call, not a giant page.
 */
import { z } from "zod";
import { forbidden } from "./errors.ts";
import { isManager, type Principal } from "./permissions.ts";
import type { Ticket } from "./ticket.ts";
import { IdList, periodRange } from "./ticket_query.ts";
import { MAX, MSG } from "./text.ts";

/** Page sizes of spec 002 §9 (default 10). */
export const REPORT_PAGE_SIZES = [5, 10, 20, 50, 100] as const;
export const REPORT_DEFAULT_PAGE_SIZE = 10;

/** The status filter's values (spec 002 §2.14). */
export const REPORT_STATUSES = ["open", "closed", "pending", "group"] as const;
export type ReportStatus = typeof REPORT_STATUSES[number];

/** The text of §5's refusal: a user-profile account asked for other users' tickets. */
export const REPORT_OTHER_USERS = "Você não tem permissão para filtrar tickets de outros usuários";

const optionalText = z.preprocess(
  (v) => (v === "" || v === "null" || v === "undefined" ? undefined : v),
  z.string().max(100).optional(),
);

const optionalId = z.preprocess(
  (v) => (v === "" || v === "null" || v === "undefined" || v === "0" ? undefined : v),
  z.coerce.number().int().positive().optional(),
);

/** The status list, given as JSON, repeated keys or comma-separated text. */
const StatusList = z.preprocess((raw) => {
  const parts = Array.isArray(raw) ? raw : [raw];
  const out: unknown[] = [];
  for (const part of parts) {
    if (part === undefined || part === null || part === "") continue;
    if (typeof part !== "string") {
      out.push(part);
      continue;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(part);
    } catch { /* plain text */ }
    if (Array.isArray(parsed)) out.push(...parsed);
    else out.push(...part.split(",").map((s) => s.trim()).filter(Boolean));
  }
  return out;
}, z.array(z.enum(REPORT_STATUSES)).max(MAX.list, MSG.tooLong));

/** The filters of the report and of its export. */
export const TicketReportFilter = z.object({
  searchParam: z.string().trim().max(200).default(""),
  ticketId: optionalId,
  contactId: optionalId,
  whatsappId: optionalId,
  tags: IdList.default([]),
  users: IdList.default([]),
  queueIds: IdList.default([]),
  status: StatusList.default([]),
  dateFrom: optionalText,
  dateTo: optionalText,
});
export type TicketReportFilter = z.infer<typeof TicketReportFilter>;

/** GET /ticketreport/reports: the filters and the page. */
export const TicketReportQuery = TicketReportFilter.extend({
  page: z.coerce.number().int().min(1).catch(1).default(1),
  pageSize: z.coerce.number().int().refine(
    (n) => (REPORT_PAGE_SIZES as readonly number[]).includes(n),
    { message: `pageSize must be one of ${REPORT_PAGE_SIZES.join(", ")}` },
  ).default(REPORT_DEFAULT_PAGE_SIZE),
});
export type TicketReportQuery = z.infer<typeof TicketReportQuery>;

/** The export: the filters and the language of the sheet's headers. */
export const TicketReportExportQuery = TicketReportFilter.extend({
  lang: z.enum(["pt", "en", "es"]).catch("pt").default("pt"),
});
export type TicketReportExportQuery = z.infer<typeof TicketReportExportQuery>;

/**
 * Spec 002 §5/§6: a user-profile account reports only its own tickets. No user filter means
 * its own id; naming anyone else is refused with §5's text. Managers' filters pass as given.
 */
export function scopeReport<F extends TicketReportFilter>(q: F, who: Pick<Principal, "id" | "profile">): F {
  if (isManager(who)) return q;
  if (q.users.some((id) => id !== who.id)) throw forbidden(REPORT_OTHER_USERS);
  return { ...q, users: [who.id] };
}

/** The whole filter as one predicate over a ticket (searchIds: the text search's matches). */
export function reportMatcher(
  q: TicketReportFilter,
  searchIds?: ReadonlySet<number>,
): (t: Ticket) => boolean {
  const checks: Array<(t: Ticket) => boolean> = [];
  if (searchIds) checks.push((t) => searchIds.has(t.id));
  if (q.ticketId !== undefined) checks.push((t) => t.id === q.ticketId);
  if (q.contactId !== undefined) checks.push((t) => t.contactId === q.contactId);
  if (q.whatsappId !== undefined) checks.push((t) => t.whatsappId === q.whatsappId);
  if (q.users.length) {
    const users = new Set(q.users);
    // The holder, as the desk's index keys tickets by user (actors/tickets/report.ts); the
    // "Usuário" column of a closed ticket names its closer (server/api/ticket_report_row.ts).
    checks.push((t) => t.userId !== null && users.has(t.userId));
  }
  if (q.queueIds.length) {
    const queues = new Set(q.queueIds);
    checks.push((t) => t.queueId !== null && queues.has(t.queueId));
  }
  if (q.tags.length) {
    // Any of the tags, as the original report's `tags IN (…)` join.
    const tags = new Set(q.tags);
    checks.push((t) => t.tagIds.some((id) => tags.has(id)));
  }
  if (q.status.length) {
    const statuses = new Set<string>(q.status);
    const groups = statuses.has("group");
    checks.push((t) => statuses.has(t.status) || (groups && t.isGroup));
  }
  const period = periodRange(q.dateFrom, q.dateTo);
  if (period) checks.push((t) => t.createdAt >= period[0] && t.createdAt < period[1]);
  if (checks.length === 0) return () => true;
  if (checks.length === 1) return checks[0];
  return (t) => {
    for (const check of checks) if (!check(t)) return false;
    return true;
  };
}

/** The report's order: newest created first, then the higher id. */
export function byCreatedDesc(a: Ticket, b: Ticket): number {
  return b.createdAt - a.createdAt || b.id - a.id;
}

/** The status label of a row (spec 002 §2.14: ABERTO, FECHADO, PENDENTE) by language. */
export const REPORT_STATUS_LABELS = {
  pt: { open: "ABERTO", closed: "FECHADO", pending: "PENDENTE" },
  en: { open: "OPEN", closed: "CLOSED", pending: "PENDING" },
  es: { open: "ABIERTO", closed: "CERRADO", pending: "PENDIENTE" },
} as const;

/** The spreadsheet's header row by language (the table's columns plus the ticket's id and link). */
export const REPORT_SHEET_HEADERS = {
  pt: ["Ticket", "Conexão", "Contato", "Número", "Usuário", "Fila", "Status", "Criado em", "Fechado em", "Link"],
  en: ["Ticket", "Connection", "Contact", "Number", "User", "Queue", "Status", "Created at", "Closed at", "Link"],
  es: ["Ticket", "Conexión", "Contacto", "Número", "Usuario", "Cola", "Estado", "Creado el", "Cerrado el", "Enlace"],
} as const;
