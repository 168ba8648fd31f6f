/**
 * The address a request comes from, for login throttling. `X-Forwarded-For` is trusted only
 * from a loopback peer (a reverse proxy on the same machine), and then only its last entry,
 * the one that proxy appended: a client elsewhere cannot choose its own throttling key.
 */
import type { Context } from "hono";

function isLoopback(hostname: string): boolean {
  return hostname === "::1" || hostname.startsWith("127.") || hostname === "::ffff:127.0.0.1";
}

/** The client's address as a string ("unknown" when the runtime does not say). */
export function clientAddress(c: Context): string {
  // Forwarded by another process of the cluster, which said whose request it is; the router
  // strips this header from any other request (server/cluster/router.ts).
  const clustered = (c.get("deps") as { cluster?: unknown } | undefined)?.cluster !== undefined;
  const relayed = clustered ? c.req.header("x-balcao-client") : undefined;
  if (relayed) return relayed;
  const info = c.env as { remoteAddr?: Deno.Addr } | undefined;
  const remote = info?.remoteAddr;
  const peer = remote && "hostname" in remote ? remote.hostname : "unknown";
  const forwarded = c.req.header("x-forwarded-for");
  if (forwarded && isLoopback(peer)) {
    const last = forwarded.split(",").map((s) => s.trim()).filter(Boolean).at(-1);
    if (last) return last;
  }
  return peer;
}
