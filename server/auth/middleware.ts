/**
 * Authentication and authorisation middleware. The company always comes from the verified
 * token and the stored user, never from the request.
 *
 * Status codes follow the spec's client (000 §4): an expired access token is 403 (the client
 * refreshes once and retries); a missing, malformed or revoked token is 401
 * `ERR_SESSION_EXPIRED` (the client clears the session). A company past its grace period
 * gets 402 `ERR_SUBSCRIPTION_EXPIRED` everywhere but the billing calls.
 */
import type { MiddlewareHandler } from "hono";
import { getUser } from "../../actors/platform/lookup.ts";
import { AppError, forbidden } from "../../domain/errors.ts";
import { can, type Permission } from "../../domain/permissions.ts";
import type { AppEnv } from "../deps.ts";
import { accessState } from "./access.ts";

const sessionExpired = () =>
  new AppError("ERR_SESSION_EXPIRED", { status: 401, message: "Session expired, log in" });

/** Reads the bearer token from the header (or `?token=` for downloads and sockets). */
export function bearerToken(header: string | undefined, query?: string): string | undefined {
  const match = header?.match(/^Bearer\s+(.+)$/i);
  return match?.[1] ?? query ?? undefined;
}

/**
 * Requires a valid access token. `billing: true` marks the invoices/subscription calls that
 * a company whose subscription expired may still use.
 */
export function requireAuth(options: { billing?: boolean } = {}): MiddlewareHandler<AppEnv> {
  return async function requireAuthMiddleware(c, next) {
    const deps = c.get("deps");
    const token = bearerToken(c.req.header("authorization"));
    if (!token) throw sessionExpired();
    const claims = await deps.tokens.verify(token, Date.now());
    if (claims === "expired") {
      throw new AppError("ERR_SESSION_EXPIRED", {
        status: 403,
        message: "Invalid token. We'll try to assign a new one on next request",
      });
    }
    if (claims === "invalid") throw sessionExpired();
    const user = await getUser(deps.system, claims.id);
    if (!user || user.companyId !== claims.companyId || user.tokenVersion !== claims.tokenVersion) {
      throw sessionExpired();
    }
    const { company, active } = await accessState(deps.system, user, Date.now());
    if (!company) throw sessionExpired();
    if ((!active || claims.scope === "billing") && !options.billing) {
      throw new AppError("ERR_SUBSCRIPTION_EXPIRED", {
        status: 402,
        message: "Subscription expired",
        extra: { dueDate: company.dueDate === null ? null : new Date(company.dueDate).toISOString() },
      });
    }
    c.set("principal", {
      id: user.id,
      companyId: user.companyId,
      profile: user.profile,
      super: user.super,
      queueIds: user.queueIds,
    });
    c.set("billingOnly", !active || claims.scope === "billing");
    await next();
  };
}

/** Requires a named permission of the rule table (after `requireAuth`). */
export function requirePermission(permission: Permission): MiddlewareHandler<AppEnv> {
  return async function requirePermissionMiddleware(c, next) {
    if (!can(c.get("principal"), permission)) throw forbidden();
    await next();
  };
}

/** Requires the super flag (after `requireAuth`). */
export function requireSuper(): MiddlewareHandler<AppEnv> {
  return async function requireSuperMiddleware(c, next) {
    if (!c.get("principal").super) throw forbidden();
    await next();
  };
}

/** Requires profile admin (after `requireAuth`). */
export function requireAdmin(): MiddlewareHandler<AppEnv> {
  return async function requireAdminMiddleware(c, next) {
    const who = c.get("principal");
    if (who.profile !== "admin" && !who.super) throw forbidden();
    await next();
  };
}
