/**
 * Kanban moves (spec 002 §2.10, §7): a card moving between lanes is `DELETE
 * /ticket-tags/{ticketId}` (the ticket leaves its kanban lanes; its plain tags stay) then
 * `PUT /ticket-tags/{ticketId}/{tagId}` (it joins the new lane).
 */
import { Hono } from "hono";
import { ticketMissing } from "../../actors/tickets/mod.ts";
import { requireAuth } from "../auth/middleware.ts";
import type { AppEnv } from "../deps.ts";
import { idParam } from "../http/validate.ts";
import { replaceTicketTags, tagMissing } from "./tags.ts";

/** The ticket-tag routes, mounted at `/ticket-tags`. */
export function ticketTagRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireAuth();

  app.put("/:ticketId/:tagId", auth, async (c) => {
    const ticketId = idParam(c, "ticketId", () => ticketMissing(c.req.param("ticketId")));
    const tagId = idParam(c, "tagId", () => tagMissing(c.req.param("tagId")));
    const ticket = await replaceTicketTags(
      c.get("deps"),
      c.get("principal"),
      ticketId,
      (current) => current.includes(tagId) ? current : [...current, tagId],
    );
    return c.json({ ticketId: ticket.id, tags: ticket.tagIds });
  });

  app.delete("/:ticketId", auth, async (c) => {
    const ticketId = idParam(c, "ticketId", () => ticketMissing(c.req.param("ticketId")));
    const ticket = await replaceTicketTags(
      c.get("deps"),
      c.get("principal"),
      ticketId,
      (current, tags) => current.filter((id) => tags.get(id)?.kanban !== 1),
    );
    return c.json({ ticketId: ticket.id, tags: ticket.tagIds });
  });

  return app;
}
