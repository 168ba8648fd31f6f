/**
 * `GET /metrics` (issue #40): the Prometheus scrape, on the server's own address, behind a
 * bearer token (BALCAO_METRICS_TOKEN). Without a token configured the endpoint does not exist
 * (404): metrics name no customer, but they do tell an outsider how busy the platform is.
 * The token is compared by its SHA-256 digest, in time independent of where it differs.
 */
import type { Context } from "hono";
import type { AppEnv } from "../deps.ts";

const encoder = new TextEncoder();

async function digest(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
}

/** Whether `given` is `expected`, compared by digest (see the module doc). */
async function sameSecret(given: string, expected: string): Promise<boolean> {
  const [a, b] = await Promise.all([digest(given), digest(expected)]);
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

/** The scrape handler; see the module doc. */
export async function metricsHandler(c: Context<AppEnv>): Promise<Response> {
  const { config, metrics } = c.get("deps");
  if (!config.metricsToken) return c.json({ error: "ERR_NOT_FOUND", message: "No route GET /metrics" }, 404);
  const header = c.req.header("authorization") ?? "";
  const token = /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim() ?? "";
  if (!(await sameSecret(token, config.metricsToken))) {
    return c.json({ error: "ERR_SESSION_EXPIRED", message: "A valid metrics token is required" }, 401, {
      "www-authenticate": 'Bearer realm="metrics"',
    });
  }
  const { body, contentType } = await metrics.scrape();
  return c.body(body, 200, { "content-type": contentType, "cache-control": "no-store" });
}
