/** The realtime scope of a ticket's events: who may receive them (domain/visibility.ts via the hub). */
import type { Ticket } from "../../domain/ticket.ts";

/** See the module doc. */
export function ticketScope(t: Ticket) {
  return {
    kind: "ticket" as const,
    ticketId: t.id,
    queueId: t.queueId,
    userId: t.userId,
    isGroup: t.isGroup,
    status: t.status,
  };
}
