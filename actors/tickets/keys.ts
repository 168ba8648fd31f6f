/**
 * KV keys of tickets (DESIGN §3): `["ticket", companyId, id] → Ticket` and the per-company
 * id counter `["counter", "ticket", companyId] → last id`, advanced in the same atomic as the
 * ticket it numbers. Seeders (bench/inbox.ts, tests/helpers/fixtures.ts) use these builders.
 */

/** The key of one ticket. */
export function ticketKey(companyId: number, id: number): Deno.KvKey {
  return ["ticket", companyId, id];
}

/** The prefix of every ticket of a company. */
export function companyTicketsPrefix(companyId: number): Deno.KvKey {
  return ["ticket", companyId];
}

/** The key of the company's last ticket id. */
export function ticketCounterKey(companyId: number): Deno.KvKey {
  return ["counter", "ticket", companyId];
}

/**
 * What a stored message still owes its ticket: `["ticket_note_due", companyId, messageId] →
 * MessageNote`, written by the messages actor in the message's own atomic and deleted by the
 * desk in the atomic of the note (notes.ts). A crash between the two leaves it, and the desk's
 * next activation applies it. Keyed by message id (time first, the ticket last) so each entry
 * is written at one end of KV's B-tree and deleted from the pages just written: keyed by
 * ticket, the pair cost every message two writes at random places in the tree.
 */
export function noteDueKey(companyId: number, messageId: string): Deno.KvKey {
  return ["ticket_note_due", companyId, messageId];
}

/** The prefix of a company's notes due (listed on the desk's activation). */
export function noteDuePrefix(companyId: number): Deno.KvKey {
  return ["ticket_note_due", companyId];
}
