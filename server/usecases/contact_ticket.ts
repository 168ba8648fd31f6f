/**
 * Opening or reusing a ticket for a number: what a message sent to a number (the external API,
 * a scheduled message, a campaign) does before it is stored. The contact of the number is
 * found or created, and its ticket on the connection chosen by one rule (spec 001 §7 names
 * openTicket and queueId, not what they do; reading chosen):
 * - the contact's open or pending ticket on the connection, if any, takes the message as it
 *   is (an agent's conversation is never taken over); with openTicket 1 a ticket still
 *   without a queue is moved to queueId;
 * - else openTicket 1 opens a ticket waiting (pending) in queue queueId, for its agents to
 *   accept, as a customer's first message would;
 * - else (openTicket 0) the message joins the contact's latest closed ticket on the
 *   connection, or a new closed one: it is in the contact's history without entering
 *   anyone's queue, and the customer's answer opens a ticket as usual.
 */
import { findContactByNumber, findOrCreateContact } from "../../actors/contacts/mod.ts";
import { companySettings } from "../../actors/platform/lookup.ts";
import {
  deskOf,
  deskState,
  moveTicketToQueue,
  openTicketForInbound,
  ticketsByContact,
} from "../../actors/tickets/mod.ts";
import type { Contact } from "../../domain/contact.ts";
import type { Principal } from "../../domain/permissions.ts";
import type { Ticket } from "../../domain/ticket.ts";
import type { Whatsapp } from "../../domain/whatsapp.ts";
import type { AppDeps } from "../deps.ts";

/** Which ticket a message to a number asks for (see the module doc). */
export interface TicketChoice {
  openTicket: 0 | 1;
  queueId?: number | null;
}

/**
 * Who the desk sees creating a closed ticket for a message to a number: an admin of the
 * company with no user id (the machine's queue rule lets a manager create in any queue; no
 * one is assigned).
 */
function machinePrincipal(companyId: number): Principal {
  return { id: 0, companyId, profile: "admin", super: false, queueIds: [] };
}

/** The contact of `number`, created (named `name`, else by its number) when new. */
export async function contactOf(deps: AppDeps, conn: Whatsapp, number: string, name = number): Promise<Contact> {
  const found = await findContactByNumber(deps.system, conn.companyId, number);
  if (found) return found;
  const { contact } = await findOrCreateContact(deps.system, conn.companyId, {
    number,
    name,
    isGroup: false,
    channel: conn.channel || "whatsapp",
  });
  return contact;
}

/** The ticket of `contact` on `conn` that the message joins (module doc). */
export async function ticketOf(deps: AppDeps, conn: Whatsapp, contact: Contact, choice: TicketChoice): Promise<Ticket> {
  const { system } = deps;
  const { companyId } = conn;
  const queueId = choice.queueId ?? null;
  const active = (await deskState(system, companyId)).index.activeOf(contact.id, conn.id);
  if (active) {
    if (choice.openTicket === 1 && active.queueId === null && queueId !== null) {
      return await moveTicketToQueue(system, companyId, active.id, queueId);
    }
    return active;
  }
  if (choice.openTicket === 1) {
    const { ticket } = await openTicketForInbound(system, companyId, {
      contactId: contact.id,
      whatsappId: conn.id,
      isGroup: false,
      fromMe: true,
      queueId,
    });
    return ticket;
  }
  const latest = (await ticketsByContact(system, companyId, contact.id)).find((t) => t.whatsappId === conn.id);
  if (latest) return latest;
  return await deskOf(system, companyId).ask("create", {
    contactId: contact.id,
    whatsappId: conn.id,
    queueId,
    userId: null,
    status: "closed",
    isGroup: false,
    channel: conn.channel || "whatsapp",
    who: machinePrincipal(companyId),
    settings: await companySettings(system, companyId),
  });
}
