/**
 * One row of the ticket report (spec 002 §2.14): the ticket's own fields and the names the
 * table shows (whatsappName, contactName, userName, queueName), joined from the in-memory
 * lookups. One shape for the page's JSON; the spreadsheet takes the same names
 * (`reportNames`) without the row's ISO dates, which it does not show.
 */
import { type TicketLookups, userRef } from "../../actors/tickets/view.ts";
import { isoDate } from "../../domain/iso_date.ts";
import type { Ticket } from "../../domain/ticket.ts";

/**
 * Whom the "Usuário" column names (spec 002 §2.14 `userName`; issue #41): a closed ticket's
 * closer (the original client sent its own user id with every close, so the closer became
 * the ticket's user), else the user holding it. A ticket an agent accepted and transferred
 * to a queue, and an admin then closed, names the admin; one the system closed (inactivity)
 * names the last holder.
 */
export function reportUserId(t: Ticket): number | null {
  return t.status === "closed" && t.closedBy !== null ? t.closedBy : t.userId;
}

/** The names a report row shows for `t`. */
export function reportNames(t: Ticket, l: TicketLookups) {
  const contact = l.contacts.get(t.contactId);
  return {
    whatsappName: t.whatsappId === null ? "" : l.whatsapps.get(t.whatsappId)?.name ?? "",
    contactName: contact?.name ?? "",
    contactNumber: contact?.number ?? "",
    userName: userRef(l, reportUserId(t))?.name ?? "",
    queueName: t.queueId === null ? "" : l.queues.get(t.queueId)?.name ?? "",
  };
}

/** The report row of `t`. */
export function reportRow(t: Ticket, l: TicketLookups) {
  const names = reportNames(t, l);
  return {
    id: t.id,
    uuid: t.uuid,
    status: t.status,
    isGroup: t.isGroup,
    whatsappId: t.whatsappId,
    whatsappName: names.whatsappName,
    contactId: t.contactId,
    contactName: names.contactName,
    contactNumber: names.contactNumber,
    userId: reportUserId(t),
    userName: names.userName,
    queueId: t.queueId,
    queueName: names.queueName,
    createdAt: isoDate(t.createdAt),
    closedAt: isoDate(t.closedAt),
  };
}

/** A report row. */
export type ReportRow = ReturnType<typeof reportRow>;
