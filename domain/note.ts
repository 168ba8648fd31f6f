/** Ticket notes (spec 000 §3, §5, §7): internal remarks on a ticket, shown with their author. */
import { z } from "zod";
import { Id, MSG } from "./text.ts";

export const TicketNote = z.object({
  id: z.number(),
  companyId: z.number(),
  ticketId: z.number(),
  contactId: z.number(),
  userId: z.number(),
  note: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type TicketNote = z.infer<typeof TicketNote>;

/** POST /ticket-notes body (note at least 2 characters, spec 000 §9). */
export const TicketNoteInput = z.object({
  note: z.string({ error: MSG.required }).trim().min(1, MSG.required).min(2, MSG.tooShort)
    .max(5000, MSG.tooLong),
  ticketId: Id,
  contactId: Id,
});
export type TicketNoteInput = z.infer<typeof TicketNoteInput>;

/** GET /ticket-notes/list query. */
export const TicketNoteQuery = z.object({ ticketId: Id, contactId: Id.optional() });
export type TicketNoteQuery = z.infer<typeof TicketNoteQuery>;
