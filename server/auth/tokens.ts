/**
 * Access and refresh tokens (HS256 JWTs). The access token travels as a bearer header and
 * lives minutes; the refresh token lives in an httpOnly cookie and carries the user's
 * `tokenVersion`, so logout and password changes invalidate every refresh token at once.
 * A `scope: "billing"` access token is what a company whose subscription expired gets: it
 * opens only the invoices and subscription calls.
 */
import { sign, verify } from "hono/jwt";
import { z } from "zod";

const ALG = "HS256";

const AccessClaims = z.object({
  typ: z.literal("access"),
  id: z.number(),
  companyId: z.number(),
  scope: z.enum(["full", "billing"]),
  /** The user's `tokenVersion` at issue: a logout or password change revokes the token at once. */
  tokenVersion: z.number(),
  exp: z.number(),
});
export type AccessClaims = z.infer<typeof AccessClaims>;

const RefreshClaims = z.object({
  typ: z.literal("refresh"),
  id: z.number(),
  tokenVersion: z.number(),
  exp: z.number(),
});
export type RefreshClaims = z.infer<typeof RefreshClaims>;

/** Why a token was refused: `expired` asks the client to refresh, `invalid` to log in again. */
export type TokenFailure = "expired" | "invalid";

export function signAccess(
  secret: string,
  claims: Omit<AccessClaims, "typ" | "exp">,
  ttlSeconds: number,
  nowMs: number,
): Promise<string> {
  return sign(
    { ...claims, typ: "access", exp: Math.floor(nowMs / 1000) + ttlSeconds },
    secret,
    ALG,
  );
}

export function signRefresh(
  secret: string,
  claims: Omit<RefreshClaims, "typ" | "exp">,
  ttlSeconds: number,
  nowMs: number,
): Promise<string> {
  return sign(
    { ...claims, typ: "refresh", exp: Math.floor(nowMs / 1000) + ttlSeconds },
    secret,
    ALG,
  );
}

async function verifyAs<S extends z.ZodType>(
  schema: S,
  secret: string,
  token: string,
): Promise<z.infer<S> | TokenFailure> {
  try {
    const payload = await verify(token, secret, ALG);
    const parsed = schema.safeParse(payload);
    return parsed.success ? parsed.data : "invalid";
  } catch (error) {
    return error instanceof Error && error.name === "JwtTokenExpired" ? "expired" : "invalid";
  }
}

export function verifyAccess(secret: string, token: string) {
  return verifyAs(AccessClaims, secret, token);
}

export function verifyRefresh(secret: string, token: string) {
  return verifyAs(RefreshClaims, secret, token);
}
