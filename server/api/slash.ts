/**
 * Mounting with a trailing slash: the spec's client calls both `GET /users/` and `GET /users`
 * (and `/settings/`, `/companies/`…), while Hono's strict routing treats them as two paths.
 */
import type { Hono } from "hono";
import type { AppEnv } from "../deps.ts";

/** Mounts `sub` at `path` so that `path` and `path/` both reach its `/` routes. */
export function routeWithSlash(app: Hono<AppEnv>, path: string, sub: Hono<AppEnv>): void {
  app.route(path, sub);
  // The second mount adds only `path/` in effect: its other paths repeat the first mount's,
  // which match first.
  app.route(`${path}/`, sub);
}
