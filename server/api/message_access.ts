/**
 * Who may read and write the messages of a ticket, and the views the messages API returns
 * (what a send refuses is server/usecases/message_send.ts `assertCanSend`).
 * Reading needs the ticket to be visible (domain/visibility.ts, the rule of lists and live
 * events); writing needs the tickets area's `assertCanHandle` (a plain user does not write in
 * another user's conversation unless it is a group).
 */
import { getContact } from "../../actors/contacts/mod.ts";
import { messageViews } from "../../actors/messages/view.ts";
import { companySettings } from "../../actors/platform/lookup.ts";
import { getTicket, ticketMissing } from "../../actors/tickets/mod.ts";
import { forbidden } from "../../domain/errors.ts";
import type { Message, MessageView } from "../../domain/message.ts";
import type { Principal } from "../../domain/permissions.ts";
import { assertCanHandle, OTHER_SECTOR, type Ticket } from "../../domain/ticket.ts";
import { canSeeTicket } from "../../domain/visibility.ts";
import type { AppDeps } from "../deps.ts";

/** The ticket and the company settings, once `who` was found allowed. */
export interface TicketAccess {
  ticket: Ticket;
  settings: Record<string, string>;
}

/** The ticket if `who` may read its messages; 404 when it does not exist, 403 when hidden. */
export async function readableTicket(
  deps: AppDeps,
  who: Principal,
  ticketId: number,
): Promise<TicketAccess> {
  const ticket = await getTicket(deps.system, who.companyId, ticketId);
  if (!ticket) throw ticketMissing(ticketId);
  const settings = await companySettings(deps.system, who.companyId);
  if (!canSeeTicket(who, ticket, settings)) throw forbidden(OTHER_SECTOR);
  return { ticket, settings };
}

/** The ticket if `who` may write in it (send, edit, delete, forward from it). */
export async function writableTicket(
  deps: AppDeps,
  who: Principal,
  ticketId: number,
): Promise<TicketAccess> {
  const access = await readableTicket(deps, who, ticketId);
  assertCanHandle(access.ticket, who, access.settings);
  return access;
}

/** Views of messages of one ticket, with the ticket's contact. */
export async function viewsOf(
  deps: AppDeps,
  ticket: Ticket,
  messages: readonly Message[],
): Promise<MessageView[]> {
  const contact = await getContact(deps.system, ticket.companyId, ticket.contactId);
  return await messageViews(
    { secret: deps.secret, kv: deps.kv },
    ticket.companyId,
    messages,
    contact ? { id: contact.id, name: contact.name } : null,
  );
}
