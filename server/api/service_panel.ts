/**
 * The service panel's data (spec 000 §2 Service panel, §6: admin and supervisor): one column
 * per user of the company with their open tickets, and the 'Aguardando' column of pending
 * tickets. Read from the desk's per-user and per-status lists (newest first), each column cut
 * to PANEL_COLUMN_LIMIT cards with its full count, so a busy company's panel stays one small
 * answer. The page keeps itself live from `company-{id}-ticket` events.
 */
import { Hono } from "hono";
import { companyUsers } from "../../actors/platform/lookup.ts";
import { deskState, loadLookups, ticketItem } from "../../actors/tickets/mod.ts";
import type { SortedTickets } from "../../actors/tickets/sorted.ts";
import type { TicketLookups } from "../../actors/tickets/view.ts";
import { requireAuth, requirePermission } from "../auth/middleware.ts";
import type { AppEnv } from "../deps.ts";

/** Cards per column; the column's count says how many there are in all. */
export const PANEL_COLUMN_LIMIT = 50;

/** The newest `PANEL_COLUMN_LIMIT` tickets of a list as list items, and the list's length. */
function column(list: SortedTickets | undefined, lookups: TicketLookups) {
  if (!list) return { tickets: [], count: 0 };
  const newest = list.slice(list.length - PANEL_COLUMN_LIMIT, list.length).reverse();
  return { tickets: newest.map((t) => ticketItem(t, lookups)), count: list.length };
}

/** Mounted at `/service-panel`. */
export function servicePanelRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get("/", requireAuth(), requirePermission("service-panel:view"), async (c) => {
    const { system } = c.get("deps");
    const { companyId } = c.get("principal");
    const [{ index }, lookups, people] = await Promise.all([
      deskState(system, companyId),
      loadLookups(system, companyId),
      companyUsers(system, companyId),
    ]);
    people.sort((a, b) => a.name.localeCompare(b.name, "pt") || a.id - b.id);
    return c.json({
      users: people.map((u) => ({
        id: u.id,
        name: u.name,
        profile: u.profile,
        online: u.online,
        ...column(index.byUser.open.get(u.id), lookups),
      })),
      pending: column(index.all.pending, lookups),
      limit: PANEL_COLUMN_LIMIT,
    });
  });

  return app;
}
