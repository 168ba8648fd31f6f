/**
 * Login, refresh, logout and `me` (spec 000 §4, §7). The refresh token is an httpOnly cookie
 * `jrt`; the access token is returned in the body and sent back as a bearer header.
 */
import { Hono } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { PLATFORM, users } from "../../actors/platform/collections.ts";
import { findUserByEmail, getUser } from "../../actors/platform/lookup.ts";
import { companyChannel } from "../../domain/events.ts";
import { AppError } from "../../domain/errors.ts";
import { LoginInput, type User } from "../../domain/user.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { parseBody } from "../http/validate.ts";
import { accessState } from "../auth/access.ts";
import { clientAddress } from "../auth/client_address.ts";
import { isKnownDevice, rememberDevice } from "../auth/device_cookie.ts";
import { LOGIN_LIMITS, loginDelay, loginFailed, loginKeys, loginRefusal, loginSucceeded } from "../auth/login_limits.ts";
import { servedOverTls } from "../http/transport.ts";
import { requireAuth } from "../auth/middleware.ts";
import { auditLogins } from "../audit/login.ts";
import { verifyOrBurn } from "../auth/passwords.ts";
import { signAccess, signRefresh, verifyRefresh } from "../auth/tokens.ts";
import { sessionUser } from "../auth/session_user.ts";
import { isoDate } from "../../domain/iso_date.ts";
import type { Context } from "hono";

const REFRESH_COOKIE = "jrt";

const invalidCredentials = () =>
  new AppError("ERR_INVALID_CREDENTIALS", {
    status: 401,
    message: "Authentication error, check your e-mail and password",
  });

/** Issues both tokens for `user`, setting the refresh cookie; returns the access token. */
async function issueTokens(
  c: Context<AppEnv>,
  deps: AppDeps,
  user: User,
  scope: "full" | "billing",
): Promise<string> {
  const now = Date.now();
  const refresh = await signRefresh(
    deps.secret,
    { id: user.id, tokenVersion: user.tokenVersion },
    deps.config.refreshTokenTtl,
    now,
  );
  setCookie(c, REFRESH_COOKIE, refresh, {
    httpOnly: true,
    sameSite: "Lax",
    path: "/",
    maxAge: deps.config.refreshTokenTtl,
  });
  return await signAccess(
    deps.secret,
    { id: user.id, companyId: user.companyId, scope, tokenVersion: user.tokenVersion },
    deps.config.accessTokenTtl,
    now,
  );
}

export function authRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // Audit log (issue #24): logins, failed logins and lockouts, recorded once the answer is known.
  app.use("/login", auditLogins());

  app.post("/login", async (c) => {
    const deps = c.get("deps");
    const input = await parseBody(c, LoginInput);
    const now = Date.now();
    const limits = { ...LOGIN_LIMITS, ...deps.config.loginLimits };
    const keys = loginKeys(input.email, clientAddress(c));
    const user = await findUserByEmail(deps.system, input.email);
    const knownDevice = await isKnownDevice(c, deps.secret, user?.id);
    const wait = await loginRefusal(deps.throttle, keys, knownDevice, now, limits);
    if (wait > 0) {
      c.header("Retry-After", String(Math.ceil(wait / 1000)));
      throw new AppError("ERR_TOO_MANY_ATTEMPTS", {
        status: 429,
        message: "Too many login attempts, try again later",
      });
    }
    // Slowed down, never refused, by the e-mail's failures from elsewhere (login_limits.ts).
    const delay = await loginDelay(deps.throttle, keys, knownDevice, now, limits);
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    const state = user ? await accessState(deps.system, user, Date.now()) : undefined;
    // A user of a deleted company logs in like an unknown e-mail (same answer, same time).
    const known = state?.company ? user : undefined;
    const valid = await verifyOrBurn(known?.passwordHash, input.password, deps.config.passwordHash);
    if (!user || !state?.company || !valid) {
      await loginFailed(deps.throttle, keys, knownDevice, Date.now());
      throw invalidCredentials();
    }
    await loginSucceeded(deps.throttle, keys);

    const { company, active } = state;
    const token = await issueTokens(c, deps, user, active ? "full" : "billing");
    // After the refresh cookie, so clients that keep only the first Set-Cookie keep `jrt`.
    await rememberDevice(c, deps.secret, user.id, servedOverTls(c, deps.config.trustProxy), Date.now());
    const body = { token, user: await sessionUser(deps.system, user) };
    if (!active) {
      // Spec 000 §4: the client goes to /financeiro with no stored token; the billing-only
      // token lets that page list and pay invoices and nothing else.
      return c.json({
        error: "ERR_SUBSCRIPTION_EXPIRED",
        message: `Subscription expired on ${isoDate(company?.dueDate)?.slice(0, 10)}`,
        dueDate: isoDate(company?.dueDate),
        ...body,
      }, 402);
    }
    deps.bus.publish({
      companyId: user.companyId,
      channel: companyChannel(user.companyId, "auth"),
      data: { action: "update", user: { id: user.id } },
      scope: { kind: "users", userIds: [user.id] },
    });
    return c.json(body);
  });

  app.post("/refresh_token", async (c) => {
    const deps = c.get("deps");
    const token = getCookie(c, REFRESH_COOKIE);
    const claims = token ? await verifyRefresh(deps.secret, token) : "invalid";
    const user = typeof claims === "object" ? await getUser(deps.system, claims.id) : undefined;
    if (typeof claims !== "object" || !user || user.tokenVersion !== claims.tokenVersion) {
      deleteCookie(c, REFRESH_COOKIE, { path: "/" });
      throw new AppError("ERR_SESSION_EXPIRED", { status: 401, message: "Session expired, log in" });
    }
    const { active } = await accessState(deps.system, user, Date.now());
    const access = await issueTokens(c, deps, user, active ? "full" : "billing");
    return c.json({ token: access, user: await sessionUser(deps.system, user) });
  });

  app.delete("/logout", requireAuth({ billing: true }), async (c) => {
    const deps = c.get("deps");
    const id = c.get("principal").id;
    await users.in(deps.system, PLATFORM).update(
      id,
      (old, now) => ({ ...old, tokenVersion: old.tokenVersion + 1, online: false, updatedAt: now }),
      () => new AppError("ERR_NO_USER_FOUND", { status: 404, message: `User ${id} not found` }),
    );
    deleteCookie(c, REFRESH_COOKIE, { path: "/" });
    return c.json({ message: "USER_LOGOUT" });
  });

  app.get("/me", requireAuth({ billing: true }), async (c) => {
    const deps = c.get("deps");
    const user = await getUser(deps.system, c.get("principal").id);
    if (!user) throw new AppError("ERR_SESSION_EXPIRED", { status: 401, message: "Session expired" });
    return c.json(await sessionUser(deps.system, user));
  });

  return app;
}
