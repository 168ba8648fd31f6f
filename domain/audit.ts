/**
 * The audit log (issue #24): who changed which user, setting, plan, company or connection, and
 * the logins, failed logins and lockouts, kept per company for AUDIT_RETENTION_MS and read by
 * the company's admin (GET /audit-log). Entries are append-only; a repeated failed login or
 * lockout of one e-mail within AUDIT_REPEAT_MS is folded into the previous entry's `count`,
 * so a password-guessing run cannot flood the log.
 */
import { z } from "zod";
import { SearchPage } from "./paging.ts";
import { MAX, MSG } from "./text.ts";

export const AUDIT_ACTIONS = [
  "user.create",
  "user.update",
  "user.delete",
  // An admin (or the super user) set another user's password (#38): a reset, not an edit.
  "user.password",
  "setting.update",
  "plan.create",
  "plan.update",
  "plan.delete",
  "company.create",
  "company.update",
  "company.delete",
  // A platform owner moved a company to another process of the cluster (#35).
  "company.move",
  "connection.create",
  "connection.update",
  "connection.delete",
  // A connection down past the grace period, and back (issue #40: domain/connection_alert.ts).
  "connection.dropped",
  "connection.restored",
  "login.success",
  "login.failed",
  "login.locked",
  // Billing (#21): an invoice paid through a provider or marked paid by the super user.
  "invoice.pay",
] as const;
export const AuditAction = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof AuditAction>;

/** How long an entry is kept (KV `expireIn` on the entry and its index keys). */
export const AUDIT_RETENTION_MS = 90 * 24 * 3600 * 1000;

/** Repeats of a failed login or lockout of the same user within this window add to one entry. */
export const AUDIT_REPEAT_MS = 5 * 60 * 1000;

/** What an action touched. */
export const AuditTarget = z.object({
  kind: z.enum(["user", "setting", "plan", "company", "connection", "invoice"]),
  id: z.union([z.number(), z.string()]),
  name: z.string().optional(),
});
export type AuditTarget = z.infer<typeof AuditTarget>;

/** One audit entry as stored and as GET /audit-log answers it. */
export const AuditEntry = z.object({
  /** Time-ordered id (`{ms, 13 digits}-{n}`): key order is time order. */
  id: z.string(),
  companyId: z.number(),
  /** ISO time of the (last, for folded repeats) occurrence. */
  at: z.string(),
  action: AuditAction,
  /** Who did it; null for a login attempt (nobody is signed in yet). */
  userId: z.number().nullable(),
  userName: z.string().nullable(),
  /** True when the one who acted is a super user (possibly of another company). */
  bySuper: z.boolean(),
  target: AuditTarget,
  /** Field names changed, the setting's new value…; never a password or a secret. */
  detail: z.record(z.string(), z.unknown()),
  /** The client's address, for logins. */
  address: z.string().optional(),
  /** Occurrences folded into this entry (failed logins, lockouts). */
  count: z.number().int().positive(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

/** A date (`2025-01-31`) or date-time; `to` as a date means the whole day. */
const DateBound = z.string().max(MAX.date, MSG.tooLong).trim().refine((s) => !Number.isNaN(Date.parse(s)), "Invalid date");

/** GET /audit-log's query. */
export const AuditQuery = z.object({
  action: AuditAction.optional(),
  userId: z.coerce.number().int().positive().optional(),
  from: DateBound.optional(),
  to: DateBound.optional(),
  pageNumber: SearchPage.shape.pageNumber,
  /** Super users only: another company's log. */
  companyId: z.coerce.number().int().positive().optional(),
});
export type AuditQuery = z.infer<typeof AuditQuery>;

/** Page size of GET /audit-log. */
export const AUDIT_PAGE_SIZE = 20;

/** The id prefix of time `ms`: ids of later times sort after it. */
export function auditIdAt(ms: number): string {
  return String(Math.max(0, Math.floor(ms))).padStart(13, "0");
}

/** The time range [start, end) in ms of a query's `from`/`to` (a bare date `to` ends after that day). */
export function auditRange(query: Pick<AuditQuery, "from" | "to">): { start: number; end: number } {
  const start = query.from ? Date.parse(query.from) : 0;
  let end = query.to ? Date.parse(query.to) : Number.MAX_SAFE_INTEGER;
  if (query.to && /^\d{4}-\d{2}-\d{2}$/.test(query.to)) end += 24 * 3600 * 1000;
  return { start, end };
}

/** Input fields never shown in an entry's detail. */
const SECRET_FIELDS = /password|token|secret|key$/i;

/**
 * The names of the fields an update sent (only those that differ from `before`, when given:
 * schemas fill defaults in), never their values.
 */
export function changedFields(input: Record<string, unknown>, before?: object): string[] {
  const old = before as Record<string, unknown> | undefined;
  return Object.keys(input)
    .filter((k) => input[k] !== undefined && (!old || JSON.stringify(input[k]) !== JSON.stringify(old[k])))
    .sort();
}

/** `input` without the values of secret fields (their names stay, valued "***"). */
export function redactSecrets(input: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).map(([k, v]) => [k, SECRET_FIELDS.test(k) ? "***" : v]));
}
