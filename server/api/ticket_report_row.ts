/**
 * One row of the ticket report (spec 002 §2.14): the ticket's own fields and the names the
 * table shows (whatsappName, contactName, userName, queueName), joined from the in-memory
 * lookups. One shape for the page's JSON and the spreadsheet.
 */
import { type TicketLookups, userRef } from "../../actors/tickets/view.ts";
import { isoDate } from "../../domain/iso_date.ts";
import type { Ticket } from "../../domain/ticket.ts";

/** The report row of `t`. */
export function reportRow(t: Ticket, l: TicketLookups) {
  const contact = l.contacts.get(t.contactId);
  return {
    id: t.id,
    uuid: t.uuid,
    status: t.status,
    isGroup: t.isGroup,
    whatsappId: t.whatsappId,
    whatsappName: t.whatsappId === null ? "" : l.whatsapps.get(t.whatsappId)?.name ?? "",
    contactId: t.contactId,
    contactName: contact?.name ?? "",
    contactNumber: contact?.number ?? "",
    userId: t.userId,
    userName: userRef(l, t.userId)?.name ?? "",
    queueId: t.queueId,
    queueName: t.queueId === null ? "" : l.queues.get(t.queueId)?.name ?? "",
    createdAt: isoDate(t.createdAt),
    closedAt: isoDate(t.closedAt),
  };
}

/** A report row. */
export type ReportRow = ReturnType<typeof reportRow>;
