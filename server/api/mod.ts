/**
 * Where every API area is mounted. One line per area; an area's file owns its paths.
 * Keep this list short and sorted by area; add your area's line here.
 */
import type { Hono } from "hono";
import type { AppEnv } from "../deps.ts";
import { contactRoutes } from "./contacts.ts";
import { walletRoutes } from "./wallets.ts";

export function mountAreas(app: Hono<AppEnv>): void {
  // TODO(#3): mount /contacts with routeWithSlash once slash.ts lands, for `GET /contacts/`.
  app.route("/contacts", contactRoutes());
  app.route("/wallets", walletRoutes());
}
