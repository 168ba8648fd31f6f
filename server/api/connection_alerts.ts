/**
 * GET /connection-alerts (issue #40; not in the spec's API): the dropped WhatsApp numbers of
 * domain/connection_alert.ts.
 * - A company's admin gets its open alerts (the top bar's bell, with a toast when one arrives
 *   over `company-{id}-connectionAlert`).
 * - The platform owner with `all=true` gets every company's, open and restored in the last
 *   week, with the company's name (the /connection-alerts page).
 */
import { Hono } from "hono";
import { readConnectionAlerts } from "../../actors/sessions/alerts.ts";
import { companies, PLATFORM } from "../../actors/platform/collections.ts";
import { alertOrder, alertView, ConnectionAlertQuery } from "../../domain/connection_alert.ts";
import { can } from "../../domain/permissions.ts";
import { forbidden } from "../../domain/errors.ts";
import { requireAuth, requirePermission } from "../auth/middleware.ts";
import { parseQuery } from "../http/validate.ts";
import type { AppEnv } from "../deps.ts";

export function connectionAlertRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/", requireAuth(), requirePermission("connections-page:actionButtons"), async (c) => {
    const who = c.get("principal");
    const { kv, system } = c.get("deps");
    if (parseQuery(c, ConnectionAlertQuery).all !== "true") {
      const open = (await readConnectionAlerts(kv, who.companyId)).filter((a) => a.restoredAt === null);
      return c.json({ alerts: open.sort(alertOrder).map((a) => alertView(a)) });
    }
    if (!can(who, "super:companies")) throw forbidden(`User ${who.id} cannot read every company's connection alerts`);
    const names = new Map((await companies.in(system, PLATFORM).list()).map((company) => [company.id, company.name]));
    const alerts = (await readConnectionAlerts(kv)).sort(alertOrder);
    return c.json({ alerts: alerts.map((a) => alertView(a, names.get(a.companyId) ?? "")) });
  });
  return app;
}
