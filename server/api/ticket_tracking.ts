/**
 * `GET /tickets/{id}/tracking`: the ticket's tracking notes (accepted, transferred, returned,
 * resolved, reopened; domain/ticket_tracking.ts), oldest first, for whoever may read its
 * messages. The conversation shows them as system lines among the messages.
 */
import { Hono } from "hono";
import { ticketTracking } from "../../actors/ticket_tracking/mod.ts";
import { ticketMissing } from "../../actors/tickets/mod.ts";
import { requireAuth } from "../auth/middleware.ts";
import type { AppEnv } from "../deps.ts";
import { idParam } from "../http/validate.ts";
import { readableTicket } from "./message_access.ts";

/** Mounted at `/`: owns `/tickets/{id}/tracking`. */
export function ticketTrackingRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/tickets/:id/tracking", requireAuth(), async (c) => {
    const id = idParam(c, "id", () => ticketMissing(c.req.param("id")));
    const deps = c.get("deps");
    const who = c.get("principal");
    await readableTicket(deps, who, id);
    return c.json({ tracking: await ticketTracking(deps.kv, who.companyId, id) });
  });
  return app;
}
