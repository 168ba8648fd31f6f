/**
 * The ticket report (spec 002 §2.14, §5, §7): `GET /ticketreport/reports` answers one page
 * (`tickets`, `totalTickets.total`) from the desk's in-memory index (actors/tickets/report.ts);
 * `GET /ticketreport/reports/export` streams every match of the same filters as an .xlsx
 * (ticket_report_xlsx.ts) instead of the original client's 9,999,999-row page. A user-profile
 * account is held to its own tickets (domain/ticket_report.ts `scopeReport`).
 */
import { type Context, Hono } from "hono";
import { deskState, loadLookups } from "../../actors/tickets/mod.ts";
import { reportAll, reportPage } from "../../actors/tickets/report.ts";
import {
  scopeReport,
  TicketReportExportQuery,
  type TicketReportFilter,
  TicketReportQuery,
} from "../../domain/ticket_report.ts";
import { requireAuth } from "../auth/middleware.ts";
import type { AppEnv } from "../deps.ts";
import { parseQuery } from "../http/validate.ts";
import { searchTickets } from "./ticket_search.ts";
import { reportRow } from "./ticket_report_row.ts";
import { reportSheetStream } from "./ticket_report_xlsx.ts";
import { companySettings } from "../../actors/platform/lookup.ts";
import { companyTimeZone } from "../../domain/closed_period.ts";
import { log } from "../../actors/_runtime/log.ts";

/** The index, the scoped filter and the text search's matches of one report call. */
async function prepare<F extends TicketReportFilter>(c: Context<AppEnv>, raw: F) {
  const { system } = c.get("deps");
  const who = c.get("principal");
  const q = scopeReport(raw, who);
  const { index } = await deskState(system, who.companyId);
  // A report waits for a message index still building after a start: it has no partial flag.
  const searchIds = q.searchParam
    ? (await searchTickets(system, who.companyId, index, q.searchParam, Infinity)).ids
    : undefined;
  return { q, index, searchIds, system, companyId: who.companyId };
}

/** Mounted at `/ticketreport`. */
export function ticketReportRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireAuth();

  app.get("/reports", auth, async (c) => {
    const { q, index, searchIds, system, companyId } = await prepare(c, parseQuery(c, TicketReportQuery));
    const page = reportPage(index, q, q.page, q.pageSize, searchIds);
    const lookups = await loadLookups(system, companyId);
    return c.json({
      tickets: page.tickets.map((t) => reportRow(t, lookups)),
      totalTickets: { total: page.total },
      // The company's zone: the page's days and dates are read in it (#41).
      timeZone: companyTimeZone(await companySettings(system, companyId)),
    });
  });

  app.get("/reports/export", auth, async (c) => {
    const { q, index, searchIds, system, companyId } = await prepare(c, parseQuery(c, TicketReportExportQuery));
    const tickets = reportAll(index, q, searchIds);
    const lookups = await loadLookups(system, companyId);
    const body = await reportSheetStream({
      tickets,
      lookups,
      timeZone: companyTimeZone(await companySettings(system, companyId)),
      lang: q.lang,
      origin: new URL(c.req.url).origin,
      onError: (error) => log.error("ticket report export failed", { error }),
    });
    const day = new Date().toISOString().slice(0, 10);
    return new Response(body, {
      headers: {
        "content-type": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "content-disposition": `attachment; filename="relatorio-tickets-${day}.xlsx"`,
        "cache-control": "private, no-store",
        // The rows the file holds, for the page's progress indicator.
        "x-total-count": String(tickets.length),
        "access-control-expose-headers": "x-total-count",
      },
    });
  });

  return app;
}
