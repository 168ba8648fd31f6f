/** The audit log: appends through the per-company actor, reads by range from KV. */
import type { ActorSystem } from "../_runtime/system.ts";
import { AUDIT_PAGE_SIZE, type AuditEntry, auditIdAt, type AuditQuery, auditRange } from "../../domain/audit.ts";
import { auditActor, type AuditRecord } from "./actor.ts";

export { auditActor, type AuditRecord } from "./actor.ts";

/** Appends an entry to its company's log; resolves once it is durable. */
export function appendAudit(system: ActorSystem, record: AuditRecord): Promise<AuditEntry> {
  return system.ref(auditActor, record.companyId).ask("append", record);
}

/** Entries read per request at most: an action filter over a long range stops there (hasMore). */
const SCAN_LIMIT = 5000;

/**
 * One page of a company's log, newest first. Reads one key range (the userId filter has its
 * own index); the action filter is applied while reading. The log is an admin screen read
 * rarely, so it is read from KV rather than kept in memory; a page costs the entries before it.
 */
export async function readAudit(
  kv: Deno.Kv,
  companyId: number,
  query: Pick<AuditQuery, "action" | "userId" | "from" | "to" | "pageNumber">,
): Promise<{ records: AuditEntry[]; hasMore: boolean }> {
  const { start, end } = auditRange(query);
  const prefix: Deno.KvKey = query.userId === undefined ? ["audit", companyId] : ["audit_by_user", companyId, query.userId];
  const selector = { start: [...prefix, auditIdAt(start)], end: [...prefix, auditIdAt(end)] };
  const skip = (query.pageNumber - 1) * AUDIT_PAGE_SIZE;
  const records: AuditEntry[] = [];
  let matched = 0;
  let scanned = 0;
  for await (const entry of kv.list<AuditEntry>(selector, { reverse: true, batchSize: 500 })) {
    if (++scanned > SCAN_LIMIT) return { records, hasMore: true };
    if (query.action && entry.value.action !== query.action) continue;
    if (matched++ < skip) continue;
    if (records.length === AUDIT_PAGE_SIZE) return { records, hasMore: true };
    records.push(entry.value);
  }
  return { records, hasMore: false };
}
