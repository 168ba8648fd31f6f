/**
 * Who is looking at a page, known on the server from the refresh cookie (`jrt`, httpOnly,
 * SameSite=Lax, sent with every navigation). With it a page renders its first data and its
 * gates on the server, so there is no spinner before content and no flash of a page the
 * user may not open. The access token stays in the browser; for the page's own API reads
 * the server mints a short one (see `loadFor`).
 */
import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import { getUser } from "../../actors/platform/lookup.ts";
import type { User } from "../../domain/user.ts";
import type { SessionUser } from "../../islands/lib/session.ts";
import { accessState } from "../auth/access.ts";
import { signAccess, verifyRefresh } from "../auth/tokens.ts";
import type { AppEnv } from "../deps.ts";
import { sessionUser } from "../auth/session_user.ts";

/** The signed-in viewer of a page, and a bearer token good for a few seconds of API reads. */
export interface Viewer {
  user: SessionUser;
  token: string;
}

/** Seconds a page-render token lives: long enough for the loaders, useless afterwards. */
const RENDER_TOKEN_TTL = 30;

/** The viewer of this request, or null (no cookie, revoked, or a company past its grace). */
export async function pageViewer(c: Context<AppEnv>): Promise<Viewer | null> {
  const deps = c.get("deps");
  const cookie = getCookie(c, "jrt");
  if (!cookie) return null;
  const claims = await verifyRefresh(deps.secret, cookie);
  if (typeof claims !== "object") return null;
  const user: User | undefined = await getUser(deps.system, claims.id);
  if (!user || user.tokenVersion !== claims.tokenVersion) return null;
  const now = Date.now();
  const { company, active } = await accessState(deps.system, user, now);
  if (!company || !active) return null;
  const token = await signAccess(
    deps.secret,
    { id: user.id, companyId: user.companyId, scope: "full", tokenVersion: user.tokenVersion },
    RENDER_TOKEN_TTL,
    now,
  );
  return { user: await sessionUser(deps.system, user) as SessionUser, token };
}
