/**
 * The Hono app: deps injection, error mapping, and the API areas mounted by path. Each area
 * lives in `server/api/<area>.ts` and exports a function returning its sub-app.
 */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "./deps.ts";
import { errorResponse } from "./http/errors.ts";
import { authRoutes } from "./api/auth.ts";
import { mountAreas } from "./api/mod.ts";
import { pageRouter } from "./pages/mod.ts";
import { assetRoutes } from "./islands/mod.ts";
import { realtimeRoutes } from "./realtime/routes.ts";
import { openApiRoutes } from "./openapi/routes.ts";
import { securityHeaders } from "./http/security_headers.ts";
import { requestBodyLimit } from "./http/body_limit.ts";
import { requestContext } from "./http/request_log.ts";
import { readinessGate } from "./readiness.ts";
import { metricsHandler } from "./metrics/route.ts";

/** Builds the app for one set of deps (one per server; tests build many). */
export function createApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(async function injectDeps(c, next) {
    c.set("deps", deps);
    await next();
  });
  // The request's id, logger and latency (issue #40), around everything else.
  app.use(requestContext());
  // Headers on every answer: pages, API, files and errors (server/http/security_headers.ts).
  app.use(securityHeaders());
  app.use(requestBodyLimit());
  app.onError(errorResponse);
  // Liveness, readiness and the scrape answer while the server starts (server/readiness.ts).
  app.get("/health", (c) => c.json({ status: "ok" }));
  app.get("/ready", (c) => {
    const { readiness } = c.get("deps");
    return c.json({ status: readiness.ready ? "ready" : readiness.phase }, readiness.ready ? 200 : 503);
  });
  app.get("/metrics", metricsHandler);
  app.use(readinessGate());
  // Pages answer only GETs that accept HTML, so API paths shared with pages still get JSON.
  app.use(pageRouter((request) => app.fetch(request)));
  app.route("/", assetRoutes());
  app.route("/auth", authRoutes());
  app.route("/ws", realtimeRoutes());
  app.route("/", openApiRoutes());
  mountAreas(app);
  app.notFound((c) => c.json({ error: "ERR_NOT_FOUND", message: `No route ${c.req.method} ${c.req.path}` }, 404));
  return app;
}
