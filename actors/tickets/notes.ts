/**
 * A ticket's message note in KV (domain/ticket.ts `TicketNote`, keys.ts `ticketNoteKey`).
 *
 * Why: a message changes five fields of its ticket (preview, times, unread counter, who wrote
 * last), and the message and that change commit in one atomic. Rewriting the whole record
 * (~420 B, about 30 fields through V8's serializer) for each message cost the ingest path
 * more than the message itself (issue #34); the note is ~60 B. Reading a ticket writes its
 * note too.
 *
 * Any other change writes the whole record, which carries the current message fields and
 * the `noteSeq` they include, so a note is never deleted: a load applies a note only when
 * its `seq` is higher than the record's `noteSeq` (`withStoredNote`), whatever order the two
 * keys were written or restored in.
 */
import { type Ticket, TicketNote, withStoredNote } from "../../domain/ticket.ts";
import { companyTicketNotesPrefix } from "./keys.ts";

/** `t` with its stored note applied (a value that is not a note is ignored). */
export function applyStoredNote(t: Ticket, raw: unknown): Ticket {
  const note = TicketNote.safeParse(raw);
  return note.success ? withStoredNote(t, note.data) : t;
}

/** Every stored note of the company, by ticket id. */
export async function listNotes(kv: Deno.Kv, companyId: number): Promise<Map<number, unknown>> {
  const notes = new Map<number, unknown>();
  for await (const entry of kv.list({ prefix: companyTicketNotesPrefix(companyId) }, { batchSize: 1000 })) {
    notes.set(entry.key[2] as number, entry.value);
  }
  return notes;
}
