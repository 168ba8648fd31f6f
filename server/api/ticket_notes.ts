/**
 * Ticket notes (spec 000 §3, §5, §7): whoever may see a ticket (domain/visibility.ts) adds
 * notes to it and reads them with their author; the author or a manager deletes one.
 */
import { Hono } from "hono";
import { getContact } from "../../actors/contacts/mod.ts";
import { ticketNotes } from "../../actors/notes/collection.ts";
import { companyUsers } from "../../actors/platform/lookup.ts";
import type { ActorSystem } from "../../actors/_runtime/system.ts";
import { AppError, forbidden, notFound } from "../../domain/errors.ts";
import { type TicketNote, TicketNoteInput, TicketNoteQuery } from "../../domain/note.ts";
import { isManager } from "../../domain/permissions.ts";
import { requireAuth } from "../auth/middleware.ts";
import type { AppEnv } from "../deps.ts";
import { idParam, parseBody, parseQuery } from "../http/validate.ts";
import { readableTicket } from "./message_access.ts";

const noteMissing = (id: number | string) =>
  notFound("ERR_NOT_FOUND", `Ticket note ${id} does not exist`);

/** Notes with their author as `user: { id, name }` (null when the user is gone). */
async function withUsers(system: ActorSystem, companyId: number, notes: TicketNote[]) {
  const names = new Map((await companyUsers(system, companyId)).map((u) => [u.id, u.name]));
  return notes.map((n) => ({
    ...n,
    user: names.has(n.userId) ? { id: n.userId, name: names.get(n.userId)! } : null,
  }));
}

/** The ticket-note routes, mounted at `/ticket-notes`. */
export function ticketNoteRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireAuth();

  app.get("/list", auth, async (c) => {
    const query = parseQuery(c, TicketNoteQuery);
    const { system } = c.get("deps");
    const companyId = c.get("principal").companyId;
    await readableTicket(c.get("deps"), c.get("principal"), query.ticketId);
    const all = await ticketNotes.in(system, companyId).list();
    const hits = all
      .filter((n) => n.ticketId === query.ticketId)
      .filter((n) => query.contactId === undefined || n.contactId === query.contactId)
      .sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
    return c.json(await withUsers(system, companyId, hits));
  });

  app.post("/", auth, async (c) => {
    const input = await parseBody(c, TicketNoteInput);
    const { system } = c.get("deps");
    const who = c.get("principal");
    const { ticket } = await readableTicket(c.get("deps"), who, input.ticketId);
    if (!(await getContact(system, who.companyId, input.contactId))) {
      throw notFound("ERR_NO_CONTACT_FOUND", `Contact ${input.contactId} does not exist`);
    }
    if (ticket.contactId !== input.contactId && !ticket.isGroup) {
      throw new AppError("ERR_VALIDATION", {
        status: 400,
        message: `Contact ${input.contactId} is not the contact of ticket ${ticket.id}`,
        fields: { contactId: "Contact does not belong to the ticket" },
      });
    }
    const note = await ticketNotes.in(system, who.companyId).create((id, now): TicketNote => ({
      id,
      companyId: who.companyId,
      ticketId: input.ticketId,
      contactId: input.contactId,
      userId: who.id,
      note: input.note,
      createdAt: now,
      updatedAt: now,
    }));
    const [shown] = await withUsers(system, who.companyId, [note]);
    return c.json(shown);
  });

  app.delete("/:id", auth, async (c) => {
    const id = idParam(c, "id", () => noteMissing(c.req.param("id")));
    const who = c.get("principal");
    await ticketNotes.in(c.get("deps").system, who.companyId).transact((view) => {
      const note = view.records.get(id);
      if (!note) throw noteMissing(id);
      if (note.userId !== who.id && !isManager(who)) {
        throw forbidden(`Ticket note ${id} belongs to another user`);
      }
      return { remove: [id], reply: note };
    });
    return c.json({ message: "Ticket note deleted" });
  });

  return app;
}
