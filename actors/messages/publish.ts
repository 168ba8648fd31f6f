/**
 * The `company-{id}-appMessage` events (spec 000 §4 "Live events": message events create or
 * update): `{ action: "create", message, ticket, contact }` and `{ action: "update", message }`,
 * scoped to the users who may see the ticket (domain/visibility.ts via the hub).
 */
import type { ActorSystem } from "../_runtime/system.ts";
import { getContact } from "../contacts/mod.ts";
import { getTicket, type NotedTicket, ticketScope } from "../tickets/mod.ts";
import type { Contact } from "../../domain/contact.ts";
import { companyChannel } from "../../domain/events.ts";
import type { Message, MessageView } from "../../domain/message.ts";
import { messagesContext } from "./context.ts";
import { messageView } from "./view.ts";

/** The `{ id, name }` a message view carries for its contact. */
export function contactRef(contact: Contact | undefined): { id: number; name: string } | null {
  return contact ? { id: contact.id, name: contact.name } : null;
}

/**
 * Publishes the creation of `message` with its ticket and contact: the ticket as the desk's
 * event of the same change carried it (`noteMessage`), so it is joined once per message.
 */
export async function publishCreated(
  system: ActorSystem,
  message: Message,
  { ticket, item }: NotedTicket,
  contact: Contact | undefined,
): Promise<MessageView> {
  const { deps } = messagesContext(system);
  const view = await messageView({ secret: deps.secret, kv: system.kv }, message, contactRef(contact));
  system.bus.publish({
    companyId: ticket.companyId,
    channel: companyChannel(ticket.companyId, "appMessage"),
    data: { action: "create", message: view, ticket: item, contact: item.contact },
    scope: ticketScope(ticket),
  });
  return view;
}

/** Publishes a changed message; skipped when its ticket no longer exists. */
export async function publishUpdated(system: ActorSystem, message: Message): Promise<void> {
  const { deps } = messagesContext(system);
  const ticket = await getTicket(system, message.companyId, message.ticketId);
  if (!ticket) return;
  const contact = await getContact(system, message.companyId, ticket.contactId);
  const view = await messageView({ secret: deps.secret, kv: system.kv }, message, contactRef(contact));
  system.bus.publish({
    companyId: message.companyId,
    channel: companyChannel(message.companyId, "appMessage"),
    data: { action: "update", message: view, ticket: { id: ticket.id, uuid: ticket.uuid } },
    scope: ticketScope(ticket),
  });
}
