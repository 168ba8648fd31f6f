/**
 * The audit log of one company (domain/audit.ts): an append-only writer. Entries are KV
 * records with `expireIn` (the retention), so nothing sweeps them; the actor only serialises
 * the appends of its company so ids are unique and time-ordered, and folds repeated failed
 * logins or lockouts of one user into the previous entry.
 *
 * Keys (all written with the entry's remaining retention):
 * - `["audit", companyId, id] → AuditEntry`
 * - `["audit_by_user", companyId, userId, id] → AuditEntry` for who acted and, when the
 *   target is a user, that user: the userId filter is one range read.
 */
import { defineActor } from "../_runtime/actor.ts";
import {
  AUDIT_REPEAT_MS,
  AUDIT_RETENTION_MS,
  type AuditEntry,
  auditIdAt,
} from "../../domain/audit.ts";

/** An entry to append: everything but the id, time and count, which the actor sets. */
export type AuditRecord = Omit<AuditEntry, "id" | "at" | "count">;

interface AuditState {
  /** Last id's time and sequence within that millisecond. */
  lastMs: number;
  seq: number;
  /** Latest foldable entry per action and target (failed logins, lockouts), by fold key. */
  recent: Map<string, AuditEntry>;
}

const FOLDED = new Set(["login.failed", "login.locked"]);

export function auditKey(companyId: number, id: string): Deno.KvKey {
  return ["audit", companyId, id];
}

export function auditByUserKey(companyId: number, userId: number, id: string): Deno.KvKey {
  return ["audit_by_user", companyId, userId, id];
}

export const auditActor = defineActor({
  kind: "audit",
  // Nothing to read: ids come from the clock, and folding only looks at this activation's appends.
  load: () => Promise.resolve<AuditState>({ lastMs: 0, seq: 0, recent: new Map() }),
  idleMs: 10 * 60_000,
  handlers: {
    /** Appends one entry (or folds a repeat into the last one); replies with it. */
    append(ctx, record: AuditRecord): AuditEntry {
      const state = ctx.state;
      const foldKey = FOLDED.has(record.action) ? `${record.action}:${record.target.kind}:${record.target.id}` : undefined;
      const previous = foldKey ? state.recent.get(foldKey) : undefined;
      let entry: AuditEntry;
      if (previous && ctx.now - Date.parse(previous.at) < AUDIT_REPEAT_MS) {
        entry = { ...previous, at: new Date(ctx.now).toISOString(), count: previous.count + 1, address: record.address ?? previous.address };
      } else {
        if (ctx.now > state.lastMs) {
          state.lastMs = ctx.now;
          state.seq = 0;
        } else state.seq++;
        const id = `${auditIdAt(state.lastMs)}-${String(state.seq).padStart(4, "0")}`;
        entry = { ...record, id, at: new Date(ctx.now).toISOString(), count: 1 };
      }
      if (foldKey) state.recent.set(foldKey, entry);
      // Retention counts from the entry's first occurrence (its id's time).
      const expireIn = Math.max(1, Number(entry.id.slice(0, 13)) + AUDIT_RETENTION_MS - ctx.now);
      ctx.set(auditKey(record.companyId, entry.id), entry, { expireIn });
      const users = new Set<number>();
      if (entry.userId !== null) users.add(entry.userId);
      if (entry.target.kind === "user" && typeof entry.target.id === "number") users.add(entry.target.id);
      for (const userId of users) ctx.set(auditByUserKey(record.companyId, userId, entry.id), entry, { expireIn });
      return entry;
    },
  },
});
