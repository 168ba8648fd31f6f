/**
 * What one accepted `POST /api/messages/send` does: the number checked on WhatsApp
 * (whatsapp_numbers.ts: paced, remembered once confirmed), the contact found or created and
 * its ticket on the connection found or opened (contact_ticket.ts, the rule scheduled messages
 * and campaigns share), and the text or each file stored there and handed to the channel by
 * the path an agent's reply takes (message_send.ts: stored with ack 0, published live to the
 * agents who may see the ticket, then sent, paced, behind the answer).
 */
import { sendOutgoing } from "../../actors/messages/mod.ts";
import { queues } from "../../actors/queues/collection.ts";
import { deskState } from "../../actors/tickets/mod.ts";
import type { Contact } from "../../domain/contact.ts";
import { AppError, notFound } from "../../domain/errors.ts";
import type { MessageView } from "../../domain/message.ts";
import type { Ticket } from "../../domain/ticket.ts";
import type { Whatsapp } from "../../domain/whatsapp.ts";
import type { AppDeps } from "../deps.ts";
import { contactOf, type TicketChoice, ticketOf } from "./contact_ticket.ts";
import { sendUploads, type Upload } from "./message_send.ts";
import { confirmedNumber } from "./whatsapp_numbers.ts";

/** One accepted request, validated. */
export interface ExternalSend extends TicketChoice {
  number: string;
  /** The text (a text request). */
  body?: string;
  /** The files and their captions (a media request). */
  medias?: Upload[];
}

/** What a send did: the number WhatsApp knows, its contact, the ticket as it is now, the messages. */
export interface ExternalSent {
  number: string;
  contact: Contact;
  ticket: Ticket;
  messages: MessageView[];
}

/** Sends one accepted request through connection `conn`; see the module doc. */
export async function sendExternal(deps: AppDeps, conn: Whatsapp, input: ExternalSend): Promise<ExternalSent> {
  const { companyId } = conn;
  if (!await deps.outbound.ready(companyId, conn.id)) {
    throw new AppError("ERR_WAPP_NOT_INITIALIZED", {
      status: 400,
      message: `Connection ${conn.id} is not connected`,
    });
  }
  if (input.queueId && !(await queues.in(deps.system, companyId).get(input.queueId))) {
    throw notFound("ERR_NO_QUEUE_FOUND", `Queue ${input.queueId} does not exist`);
  }
  const number = await confirmedNumber(deps, conn, input.number);
  const contact = await contactOf(deps, conn, number);
  const ticket = await ticketOf(deps, conn, contact, input);
  const messages = input.medias?.length
    ? await sendUploads(deps, ticket, input.medias, { contact })
    : [(await sendOutgoing(deps, ticket, { body: input.body ?? "" }, contact)).view];
  const now = (await deskState(deps.system, companyId)).index.byId.get(ticket.id) ?? ticket;
  return { number, contact, ticket: now, messages };
}
