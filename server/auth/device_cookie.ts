/**
 * The known-device cookie `jdv`: set at every successful login, it proves that this browser
 * once signed in as that user, so the login policy (login_limits.ts) lets it past the
 * per-e-mail delay and the per-address ceiling that strangers' failures may have raised.
 * It grants nothing else: the password is still checked, and the (e-mail, address) limit
 * still applies.
 *
 * The value holds up to MAX_DEVICES HS256 tokens joined by `~` (one browser shared by a few
 * accounts), each `{typ: "device", sub: userId, exp}`, signed with a key derived from the
 * app secret; httpOnly, scoped to `/auth`, so scripts and other requests never see it.
 */
import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { sign, verify } from "hono/jwt";

const COOKIE = "jdv";
const MAX_DEVICES = 5;
/** How long a device stays known without a new successful login. */
export const DEVICE_TTL_S = 180 * 24 * 3600;

/** Device tokens are signed with their own key, so no other token passes for one. */
const deviceSecret = (secret: string) => `device:${secret}`;

async function userOf(secret: string, token: string): Promise<number | null> {
  try {
    const claims = await verify(token, deviceSecret(secret), "HS256");
    return claims.typ === "device" && typeof claims.sub === "number" ? claims.sub : null;
  } catch {
    return null;
  }
}

function tokensOf(c: Context): string[] {
  return (getCookie(c, COOKIE) ?? "").split("~").filter(Boolean).slice(0, MAX_DEVICES);
}

/** Whether the request's cookie proves an earlier successful login of `userId` from this browser. */
export async function isKnownDevice(c: Context, secret: string, userId: number | undefined): Promise<boolean> {
  if (userId === undefined) return false;
  for (const token of tokensOf(c)) if (await userOf(secret, token) === userId) return true;
  return false;
}

/** Remembers this browser for `userId` (newest first; the oldest other account drops past the cap). */
export async function rememberDevice(c: Context, secret: string, userId: number, secure: boolean, now: number): Promise<void> {
  const others: string[] = [];
  for (const token of tokensOf(c)) {
    const owner = await userOf(secret, token);
    if (owner !== null && owner !== userId) others.push(token);
  }
  const token = await sign(
    { typ: "device", sub: userId, exp: Math.floor(now / 1000) + DEVICE_TTL_S },
    deviceSecret(secret),
    "HS256",
  );
  setCookie(c, COOKIE, [token, ...others].slice(0, MAX_DEVICES).join("~"), {
    httpOnly: true,
    sameSite: "Lax",
    secure,
    path: "/auth",
    maxAge: DEVICE_TTL_S,
  });
}
