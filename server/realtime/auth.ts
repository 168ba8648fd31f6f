/**
 * Authenticates a socket's access token: the same checks as `requireAuth` (verified token,
 * existing user of the token's company, the one subscription gate of server/auth/access.ts),
 * answered with a close code instead of an HTTP status: an upgraded socket has no status.
 */
import { getUser } from "../../actors/platform/lookup.ts";
import type { Principal } from "../../domain/permissions.ts";
import { CLOSE } from "../../domain/realtime.ts";
import type { AppDeps } from "../deps.ts";
import { accessState } from "../auth/access.ts";

/** A verified principal, or the close code that refuses the socket. */
export type SocketAuth =
  /**
   * `updatedAt` of the user record read, to order it against user events; its `tokenVersion`
   * (a later logout or password change bumps it and closes the socket); the token's `exp` (s).
   */
  | {
    principal: Principal;
    updatedAt: number;
    tokenVersion: number;
    exp: number;
    /**
     * A billing-only token, or a company past its grace (spec 000 §4): the socket gets its
     * company's payment events and nothing else (issue #21: the checkout waits for CONCLUIDA).
     */
    paymentsOnly: boolean;
  }
  | { code: number; reason: string };

/** Checks `token` for a socket; a billing-only one is limited to payment events (see SocketAuth). */
export async function authenticateSocket(
  deps: Pick<AppDeps, "tokens" | "system">,
  token: string,
): Promise<SocketAuth> {
  const claims = await deps.tokens.verify(token, Date.now());
  if (claims === "expired") return { code: CLOSE.expiredToken, reason: "Token expired" };
  if (claims === "invalid") return { code: CLOSE.invalidToken, reason: "Invalid token" };
  const user = await getUser(deps.system, claims.id);
  if (!user || user.companyId !== claims.companyId) {
    return { code: CLOSE.invalidToken, reason: `User ${claims.id} not found` };
  }
  if (user.tokenVersion !== claims.tokenVersion) {
    return { code: CLOSE.invalidToken, reason: "Token revoked" };
  }
  const { company, active } = await accessState(deps.system, user, Date.now());
  if (!company) return { code: CLOSE.invalidToken, reason: `Company ${user.companyId} not found` };
  return {
    principal: {
      id: user.id,
      companyId: user.companyId,
      profile: user.profile,
      super: user.super,
      queueIds: user.queueIds,
    },
    updatedAt: user.updatedAt,
    tokenVersion: user.tokenVersion,
    exp: claims.exp,
    paymentsOnly: !active || claims.scope === "billing",
  };
}
