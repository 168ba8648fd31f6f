/**
 * The dashboard (spec 000 §2 Dashboard, §3 Dashboard response, §6: admin and supervisor):
 *
 * - `GET /dashboard` with `date_from`, `date_to`, queue and user filters, `pageNumber` of the
 *   ratings table → every key of the response (dashboard_view.ts);
 * - `GET /dashboard/xlsx` (same query) → the page's Exportar spreadsheet;
 * - `GET /exportar/baixar/dash` and `/exportar/baixar/dash/ratings` with `startDate`,
 *   `endDate` (spec 000 §7) → `{ filePath }`; the CSV is written when that path is fetched
 *   (`GET /exportar/dash.csv`, `/exportar/dash-ratings.csv`, same query, same permission),
 *   so no file is kept on the server.
 */
import { Hono } from "hono";
import type { Context } from "hono";
import { DashboardQuery } from "../../domain/dashboard.ts";
import { requireAuth, requirePermission } from "../auth/middleware.ts";
import type { AppEnv } from "../deps.ts";
import { parseQuery } from "../http/validate.ts";
import { dashboardView } from "./dashboard_view.ts";
import { dashCsv, dashXlsx, ratingsCsv } from "./dashboard_export.ts";

/** Ratings one CSV or spreadsheet export holds at most. */
const EXPORT_RATINGS = 100_000;

async function view(c: Context<AppEnv>, ratings?: number) {
  const q = parseQuery(c, DashboardQuery);
  const { system, hub } = c.get("deps");
  const companyId = c.get("principal").companyId;
  return await dashboardView(system, companyId, q, hub.onlineUserIds(companyId), Date.now(), ratings);
}

function download(body: string | Uint8Array<ArrayBuffer>, type: string, name: string): Response {
  return new Response(body, {
    headers: {
      "content-type": type,
      "content-disposition": `attachment; filename="${name}"`,
      "cache-control": "private, no-store",
    },
  });
}

/** The dashboard's routes, mounted at the root. */
export function dashboardRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const viewer = [requireAuth(), requirePermission("dashboard:view")] as const;

  app.get("/dashboard", ...viewer, async (c) => c.json(await view(c)));

  app.get("/dashboard/xlsx", ...viewer, async (c) => {
    const bytes = await dashXlsx(await view(c, EXPORT_RATINGS), new URL(c.req.url).origin);
    return download(bytes, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "dashboard.xlsx");
  });

  // The spec's two-step export: the path first (same query), then the file.
  const filePath = (c: Context<AppEnv>, name: string) => {
    parseQuery(c, DashboardQuery); // refuse a bad query now, not at download
    const query = new URL(c.req.url).search;
    return c.json({ filePath: `/exportar/${name}${query}` });
  };
  app.get("/exportar/baixar/dash", ...viewer, (c) => filePath(c, "dash.csv"));
  app.get("/exportar/baixar/dash/ratings", ...viewer, (c) => filePath(c, "dash-ratings.csv"));

  app.get("/exportar/dash.csv", ...viewer, async (c) =>
    download(dashCsv(await view(c)), "text/csv; charset=utf-8", "dashboard.csv"));
  app.get("/exportar/dash-ratings.csv", ...viewer, async (c) =>
    download(
      ratingsCsv(await view(c, EXPORT_RATINGS), new URL(c.req.url).origin),
      "text/csv; charset=utf-8",
      "dashboard-ratings.csv",
    ));

  return app;
}
