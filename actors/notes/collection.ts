/**
 * Ticket notes of a company (scope = company id). Notes are few per ticket and short, so the
 * company's notes are held in memory like any small collection; no realtime event (the spec
 * names none: the client refetches after its own change).
 */
import { TicketNote } from "../../domain/note.ts";
import { defineCollection } from "../collection/mod.ts";

export const ticketNotes = defineCollection<TicketNote>({
  name: "ticket_note",
  parse: (raw) => TicketNote.parse(raw),
});
