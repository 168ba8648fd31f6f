/**
 * GET /audit-log (issue #24; not in the spec's API): one page, newest first, of the caller's
 * company's audit log (domain/audit.ts), filtered by action, user (who acted or was acted
 * on) and date range. Admins only; a super user may name another company with `companyId`.
 */
import { Hono } from "hono";
import { AuditQuery } from "../../domain/audit.ts";
import { readAudit } from "../../actors/audit/mod.ts";
import { requireAuth, requirePermission } from "../auth/middleware.ts";
import { parseQuery } from "../http/validate.ts";
import type { AppEnv } from "../deps.ts";

export function auditLogRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/", requireAuth(), requirePermission("settings:manage"), async (c) => {
    const who = c.get("principal");
    const query = parseQuery(c, AuditQuery);
    const companyId = who.super && query.companyId ? query.companyId : who.companyId;
    return c.json(await readAudit(c.get("deps").kv, companyId, query));
  });
  return app;
}
