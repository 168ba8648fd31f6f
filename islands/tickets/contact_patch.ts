/**
 * Live contact edits in the inbox: a `company-{id}-contact` update (a new name or photo saved
 * by anyone, or fetched from WhatsApp) is copied into the tickets already on screen, the list
 * rows and the conversation's header, without waiting for a ticket event or a reload.
 */
import { channelName, onChannel } from "../lib/socket.ts";
import type { TicketItem } from "./types.ts";

/** The contact fields a ticket shows (the server's TicketItem contact). */
export interface ContactFields {
  id: number;
  name: string;
  number: string;
  profilePicUrl: string;
}

/** `ticket` with `contact`'s shown fields when it is that contact's ticket, else `ticket` itself. */
export function withContact(ticket: TicketItem, contact: ContactFields): TicketItem {
  if (ticket.contactId !== contact.id || !ticket.contact) return ticket;
  const shown = ticket.contact;
  if (shown.name === contact.name && shown.number === contact.number && shown.profilePicUrl === contact.profilePicUrl) return ticket;
  return { ...ticket, contact: { ...shown, name: contact.name, number: contact.number, profilePicUrl: contact.profilePicUrl } };
}

/**
 * The contact edits a view heard live, the newest of each contact. A ticket from a request
 * sent before an edit (the conversation's first page, a list reload) still carries the old
 * name, and shown as it came it undid the edit until the next reload; `fresh` gives it the
 * edit heard meanwhile. A later edit whose event is still on its way wins when it lands.
 */
export class HeardContacts<C extends { id: number } = ContactFields> {
  #byId = new Map<number, C>();

  /** `apply`: a ticket shown with a contact's edit (`withContact`; the kanban's adds extra info). */
  constructor(private readonly apply: (ticket: TicketItem, contact: C) => TicketItem) {}

  hear(contact: C): void {
    this.#byId.set(contact.id, contact);
  }

  /** `ticket` with the latest edit heard of its contact (itself when none differs). */
  fresh(ticket: TicketItem): TicketItem {
    const contact = this.#byId.get(ticket.contactId);
    return contact ? this.apply(ticket, contact) : ticket;
  }
}

/** Calls `apply` with every contact update of the company; returns the unsubscribe. */
export function onContactUpdate(companyId: number, apply: (contact: ContactFields) => void): () => void {
  return onChannel(channelName(companyId, "contact"), (data) => {
    const d = data as { action?: string; contact?: ContactFields };
    if (d.action === "update" && d.contact && typeof d.contact.id === "number") apply(d.contact);
  });
}
