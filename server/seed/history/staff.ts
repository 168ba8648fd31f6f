/**
 * The demo's staff at work in the replayed days: each one's calls go through the app's own
 * HTTP routes (in process, `app.fetch`), with an access token of that user, so a replayed
 * accept, reply, transfer or close is checked, decided and recorded exactly as a click in
 * the inbox would be: the same validation, permissions, ticket desk, effects and tracking.
 */
import type { Hono } from "hono";
import { getUser } from "../../../actors/platform/lookup.ts";
import type { AppDeps, AppEnv } from "../../deps.ts";
import { signAccess } from "../../auth/tokens.ts";

/** One staff member's session: JSON calls as that user. */
export class StaffSession {
  constructor(readonly app: Hono<AppEnv>, readonly userId: number, readonly token: string) {}

  /** Calls `method path` with `body` as JSON; resolves with the answer, throws on a refusal. */
  // deno-lint-ignore no-explicit-any -- the routes answer JSON of their own shapes
  async call<T = any>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await this.app.fetch(
      new Request(`http://history.local${path}`, {
        method,
        headers: { authorization: `Bearer ${this.token}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    const text = await response.text();
    if (!response.ok) throw new Error(`Demo history: ${method} ${path} answered ${response.status} ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  }
}

/** A session for user `userId` (a token as a login would give it, valid for an hour). */
export async function staffSession(app: Hono<AppEnv>, deps: AppDeps, userId: number): Promise<StaffSession> {
  const user = await getUser(deps.system, userId);
  if (!user) throw new Error(`Demo history: user ${userId} does not exist`);
  const token = await signAccess(
    deps.secret,
    { id: user.id, companyId: user.companyId, scope: "full", tokenVersion: user.tokenVersion },
    3600,
    Date.now(),
  );
  return new StaffSession(app, user.id, token);
}
