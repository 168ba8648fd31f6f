/**
 * KV keys of tickets (DESIGN §3): `["ticket", companyId, id] → Ticket`, its latest-message fields
 * `["ticket_latest", companyId, id] → TicketLatest` as bytes (latest.ts), and the per-company
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

/**
 * The key of a ticket's latest-message fields (domain/ticket.ts `TicketLatest`): a message, or
 * reading the ticket, changes only these, stored here instead of the whole record rewritten.
 */
export function ticketLatestKey(companyId: number, id: number): Deno.KvKey {
  return ["ticket_latest", companyId, id];
}

/** The prefix of the latest-message fields of every ticket of a company. */
export function companyTicketLatestPrefix(companyId: number): Deno.KvKey {
  return ["ticket_latest", companyId];
}

/** The key of the company's last ticket id. */
export function ticketCounterKey(companyId: number): Deno.KvKey {
  return ["counter", "ticket", companyId];
}

/** The key of a transition's effects intent (domain/ticket_effects.ts), written by the desk. */
export function effectKey(companyId: number, id: string): Deno.KvKey {
  return ["ticket_effect", companyId, id];
}

/** The prefix of a company's effects intents (the desk reads them on activation). */
export function effectPrefix(companyId: number): Deno.KvKey {
  return ["ticket_effect", companyId];
}
