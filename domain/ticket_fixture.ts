/**
 * A pending ticket for the domain's unit tests (ticket_test.ts, ticket_timers_test.ts): ticket
 * 7 of contact 5 in queue 10 on connection 1, created at `createdAt`, with `fields` over it.
 */
import { buildTicket, type Ticket } from "./ticket.ts";

export function pendingTicket(createdAt: number, fields: Partial<Ticket> = {}): Ticket {
  return {
    ...buildTicket({
      id: 7,
      uuid: "u-7",
      companyId: 1,
      contactId: 5,
      whatsappId: 1,
      queueId: 10,
      userId: null,
      status: "pending",
      isGroup: false,
      channel: "whatsapp",
    }, createdAt),
    ...fields,
  };
}
