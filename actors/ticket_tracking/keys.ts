/**
 * KV keys of ticket tracking notes: `["ticket_tracking", companyId, ticketId, id] → note`
 * (domain/ticket_tracking.ts). The ticket desk writes them with the transitions they
 * describe (actors/tickets/tracking_notes.ts); reads and deletes go through mod.ts.
 */

/** KV kind of the notes. */
export const TRACKING_KIND = "ticket_tracking";

/** The prefix of a ticket's notes. */
export function ticketTrackingPrefix(companyId: number, ticketId: number): Deno.KvKey {
  return [TRACKING_KIND, companyId, ticketId];
}
