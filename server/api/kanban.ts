/**
 * The kanban board's reads (spec 002 §2.10, §6, §7), behind the plan flag useKanban:
 * `GET /tags/kanban` (the lanes: kanban tags by `order`) and `GET /tickets/kanban` (the
 * cards: open and pending tickets with their contact's extra info, answered from the desk's
 * in-memory indexes). The moves are ticket_tags.ts (`DELETE /ticket-tags/{ticketId}`, `PUT
 * /ticket-tags/{ticketId}/{tagId}`), which stay open to every plan: spec 000 §7 lists them
 * with the core's tag calls.
 *
 * Who sees which card: the inbox lists' rule (domain/ticket_query.ts `inList`, built on
 * domain/visibility.ts). Admin and supervisor send showAll and see every ticket, narrowed by
 * `users`; a plain user sees its own tickets and its queues' waiting ones. Spec 002 §6 reads
 * "others see their own queues' tickets"; of the two readings (every ticket of my queues, or
 * my queues' tickets as my inbox shows them) we keep the stricter one, so the board never
 * shows a colleague's open conversation that the tickets screen hides.
 */
import { Hono } from "hono";
import { companySettings } from "../../actors/platform/lookup.ts";
import { tags } from "../../actors/tags/collection.ts";
import { deskState, loadLookups, ticketItem } from "../../actors/tickets/mod.ts";
import { queryTickets } from "../../actors/tickets/query.ts";
import { kanbanLanes } from "../../domain/tag.ts";
import { TicketKanbanQuery } from "../../domain/ticket_query.ts";
import { requireAuth } from "../auth/middleware.ts";
import { requirePlan } from "../auth/plan_gate.ts";
import type { AppEnv } from "../deps.ts";
import { parseQuery } from "../http/validate.ts";
import { searchTickets } from "./ticket_search.ts";

/** The kanban routes, mounted at `/` before the tags and tickets areas. */
export function kanbanRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const gate = [requireAuth(), requirePlan("useKanban")] as const;

  app.get("/tags/kanban", ...gate, async (c) => {
    const all = await tags.in(c.get("deps").system, c.get("principal").companyId).list();
    return c.json({ lista: kanbanLanes(all) });
  });

  app.get("/tickets/kanban", ...gate, async (c) => {
    const { system } = c.get("deps");
    const who = c.get("principal");
    const q = parseQuery(c, TicketKanbanQuery);
    const [settings, { index }] = await Promise.all([
      companySettings(system, who.companyId),
      deskState(system, who.companyId),
    ]);
    const searchIds = q.searchParam
      ? (await searchTickets(system, who.companyId, index, q.searchParam)).ids
      : undefined;
    // The board holds every open and pending card: a lane is not paged.
    const page = queryTickets(
      index,
      { ...q, statuses: ["open", "pending"], limit: Infinity },
      who,
      settings,
      searchIds,
    );
    const lookups = await loadLookups(system, who.companyId);
    return c.json({ tickets: page.tickets.map((t) => ticketItem(t, lookups, { extraInfo: true })) });
  });

  return app;
}
