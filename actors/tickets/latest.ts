/**
 * A ticket's latest-message fields in KV (domain/ticket.ts `TicketLatest`, keys.ts
 * `ticketLatestKey`): the note a message leaves on its ticket, stored on its own.
 *
 * Why: a message changes five fields of its ticket (preview, times, unread counter, who wrote
 * last), and the message and that change commit in one atomic. Rewriting the whole record
 * (~420 B, about 30 fields through V8's serializer) for each message cost the ingest path
 * more than the message itself (issue #34); these fields are ~60 B. Reading a ticket (unread
 * back to 0) writes them the same way.
 *
 * Any other change writes the whole record, which carries the current fields and the
 * `latestSeq` they include, so the key is never deleted while the ticket lives: a load
 * applies it only when its `seq` is higher than the record's `latestSeq` (`withStoredLatest`),
 * whatever order the two keys were written or restored in.
 *
 * The KV kind is not "ticket_note": that is the agents' notes collection (actors/notes).
 */
import { type Ticket, TicketLatest, withStoredLatest } from "../../domain/ticket.ts";
import { companyTicketLatestPrefix } from "./keys.ts";

/** `t` with its stored latest-message fields applied (a value of another shape is ignored). */
export function applyStoredLatest(t: Ticket, raw: unknown): Ticket {
  const note = TicketLatest.safeParse(raw);
  return note.success ? withStoredLatest(t, note.data) : t;
}

/** Every ticket's stored latest-message fields in the company, by ticket id. */
export async function listLatest(kv: Deno.Kv, companyId: number): Promise<Map<number, unknown>> {
  const latest = new Map<number, unknown>();
  for await (const entry of kv.list({ prefix: companyTicketLatestPrefix(companyId) }, { batchSize: 1000 })) {
    latest.set(entry.key[2] as number, entry.value);
  }
  return latest;
}
