/**
 * Whether a request reached us over TLS, for HSTS and `Secure` cookies. Deno serving TLS
 * itself shows `https:` in the URL. Behind a TLS-terminating reverse proxy the request
 * arrives as plain HTTP, and only the proxy's `X-Forwarded-Proto` tells; that header is
 * believed only when the operator says a proxy sets it (BALCAO_TRUST_PROXY=1), since
 * otherwise any client could write it.
 */
import type { Context } from "hono";

export function servedOverTls(c: Context, trustProxy: boolean): boolean {
  if (new URL(c.req.url).protocol === "https:") return true;
  if (!trustProxy) return false;
  // A chain of proxies appends: the last entry is the one our own proxy wrote.
  const proto = c.req.header("x-forwarded-proto")?.split(",").at(-1)?.trim().toLowerCase();
  return proto === "https";
}
