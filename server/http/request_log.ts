/**
 * Every request's id, logger and latency (issue #40). The id is the proxy's `X-Request-Id`
 * when it sent a sane one (letters, digits and `._:-`, up to 128), else a fresh UUID; the
 * response carries it back, and every log line of the request carries it, with the route
 * template and, once authenticated, the company, so an operator can follow one request from
 * the proxy's log into ours. After the response the request's latency goes to the metrics by
 * route template (metrics/http.ts); the request itself is logged at debug level (the proxy
 * keeps the access log), or at warn when it took longer than `SLOW_MS`.
 */
import type { Context, MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import type { AppEnv } from "../deps.ts";
import { methodLabel, UNMATCHED_ROUTE } from "../metrics/http.ts";

/** A request slower than this is logged at warn level. */
export const SLOW_MS = 1000;

const SANE_ID = /^[\w.:-]{1,128}$/;

/** The request's id: the proxy's when it is sane, else a new one. */
export function requestIdOf(header: string | undefined): string {
  return header && SANE_ID.test(header) ? header : crypto.randomUUID();
}

/**
 * The template of the route that answered: a page's pattern, else the path of the last
 * handler Hono ran (a middleware's `*` when none matched).
 */
export function routeOf(c: Context<AppEnv>): string {
  const page = c.get("route");
  if (page) return page;
  const path = routePath(c);
  return path === "" || path === "*" || path === "/*" ? UNMATCHED_ROUTE : path;
}

/** Sets the request's id and logger, echoes the id, and records the latency; see the module doc. */
export function requestContext(): MiddlewareHandler<AppEnv> {
  return async function requestContextMiddleware(c, next) {
    const started = performance.now();
    const requestId = requestIdOf(c.req.header("x-request-id"));
    c.set("requestId", requestId);
    const deps = c.get("deps");
    c.set("log", deps.log.child(() => ({ requestId, route: routeOf(c), companyId: c.get("principal")?.companyId })));
    try {
      await next();
    } finally {
      echoId(c, requestId);
      const ms = performance.now() - started;
      const status = c.res.status;
      deps.metrics.http.observe(methodLabel(c.req.method), routeOf(c), status, ms / 1000);
      const level = ms > SLOW_MS ? "warn" : "debug";
      if (deps.log.enabled(level)) c.get("log")[level]("Request", { method: c.req.method, status, ms: Math.round(ms) });
    }
  };
}

/**
 * Sets the id on the response in place (securityHeaders, inside this middleware, made its
 * headers mutable); `c.header` on a finished response would copy the whole response. A
 * WebSocket upgrade's answer is the runtime's own and immutable: it goes without.
 */
function echoId(c: Context<AppEnv>, requestId: string): void {
  if (c.res.status === 101) return;
  try {
    c.res.headers.set("x-request-id", requestId);
  } catch {
    c.header("x-request-id", requestId);
  }
}
