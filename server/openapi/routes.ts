/**
 * `GET /openapi.json`: the document, public. It holds shapes, never data, is the same for
 * every company, and the external API's integrators (who have a connection token, not a
 * login) must read it; every endpoint it lists enforces its own auth.
 */
import { Hono } from "hono";
import type { AppEnv } from "../deps.ts";
import { openApiDocument } from "./mod.ts";

/** Mounted at `/`. */
export function openApiRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/openapi.json", (c) => {
    c.header("cache-control", "public, max-age=300");
    c.header("access-control-allow-origin", "*");
    return c.json(openApiDocument());
  });
  return app;
}
