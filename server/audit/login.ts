/**
 * Audits POST /auth/login from outside its handler (which owns the throttling rules): once the
 * answer is known, a success (200, or 402 for an expired company), a wrong password (401) or a
 * refusal for too many attempts (429) is recorded in the log of the company of the user the
 * e-mail names. An unknown e-mail belongs to no company and is not recorded.
 */
import type { MiddlewareHandler } from "hono";
import type { AuditAction } from "../../domain/audit.ts";
import { LoginInput } from "../../domain/user.ts";
import { findUserByEmail } from "../../actors/platform/lookup.ts";
import { clientAddress } from "../auth/client_address.ts";
import type { AppEnv } from "../deps.ts";
import { recordAudit } from "./record.ts";

const OUTCOMES: Record<number, AuditAction> = { 200: "login.success", 402: "login.success", 401: "login.failed", 429: "login.locked" };

/** Middleware for the login route; see the module doc. */
export function auditLogins(): MiddlewareHandler<AppEnv> {
  return async function auditLoginsMiddleware(c, next) {
    await next();
    const action = OUTCOMES[c.res.status];
    if (!action) return;
    let input: LoginInput;
    try {
      input = LoginInput.parse(JSON.parse(await c.req.text())); // the handler read it: cached
    } catch {
      return;
    }
    const deps = c.get("deps");
    const user = await findUserByEmail(deps.system, input.email);
    if (!user) return;
    const who = action === "login.success"
      ? { id: user.id, companyId: user.companyId, profile: user.profile, super: user.super, queueIds: user.queueIds }
      : null;
    await recordAudit(deps, who, action, { kind: "user", id: user.id, name: user.name }, { email: user.email }, {
      companyId: user.companyId,
      address: clientAddress(c),
    });
  };
}
