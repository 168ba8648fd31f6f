/**
 * What one accepted `POST /api/messages/send` does: the number checked on WhatsApp (through
 * the connection's shared pacing, remembered once confirmed), the contact found or created,
 * the contact's ticket on that connection found or opened, and the messages stored there and
 * handed to the channel by the same path an agent's reply takes (`sendOutgoing`: stored with
 * ack 0, published live to the agents who may see the ticket, then sent, paced, behind the
 * answer).
 *
 * Which ticket (spec 001 §7 names openTicket and queueId, not what they do; reading chosen):
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
import { saveMedia } from "../../actors/messages/media_files.ts";
import { sendOutgoing } from "../../actors/messages/mod.ts";
import { companySettings, getCompany } from "../../actors/platform/lookup.ts";
import { queues } from "../../actors/queues/collection.ts";
import {
  deskOf,
  deskState,
  moveTicketToQueue,
  openTicketForInbound,
  ticketsByContact,
} from "../../actors/tickets/mod.ts";
import type { Contact } from "../../domain/contact.ts";
import { AppError, notFound } from "../../domain/errors.ts";
import { SENT_TEXT } from "../../domain/external_message.ts";
import { normalizePhone, phoneProblem } from "../../domain/phone_number.ts";
import { mediaTypeOfMime, type MessageView } from "../../domain/message.ts";
import type { Principal } from "../../domain/permissions.ts";
import type { Ticket } from "../../domain/ticket.ts";
import type { Whatsapp } from "../../domain/whatsapp.ts";
import type { AppDeps } from "../deps.ts";
import { externalApiState } from "./external_messages_state.ts";

/** One accepted request, validated. */
export interface ExternalSend {
  number: string;
  openTicket: 0 | 1;
  queueId?: number | null;
  /** The text (a text request). */
  body?: string;
  /** The files and their captions (a media request). */
  medias?: Array<{ file: File; caption: string }>;
}

/** The answer of a send. */
export interface ExternalSendReply {
  message: string;
  number: string;
  contact: { id: number; name: string; number: string };
  ticket: { id: number; uuid: string; status: Ticket["status"]; queueId: number | null };
  messages: Array<Pick<MessageView, "id" | "body" | "mediaType" | "ack" | "fromMe" | "createdAt">>;
}

/**
 * Who the desk sees creating a closed ticket for the API: an admin of the company with no
 * user id (the machine's queue rule lets a manager create in any queue; no one is assigned).
 */
function apiPrincipal(companyId: number): Principal {
  return { id: 0, companyId, profile: "admin", super: false, queueIds: [] };
}

/** The number WhatsApp knows: checked once per connection (paced), then remembered. */
async function confirmedNumber(deps: AppDeps, conn: Whatsapp, raw: string): Promise<string> {
  const wanted = normalizePhone(raw, (await getCompany(deps.system, conn.companyId))?.pais);
  if (phoneProblem(wanted)) {
    throw new AppError("ERR_WAPP_INVALID_CONTACT", {
      status: 400,
      message: `${wanted} is not a valid WhatsApp number`,
      fields: { number: "ERR_WAPP_INVALID_CONTACT" },
    });
  }
  const cache = externalApiState(deps).numbers;
  const now = Date.now();
  const known = cache.get(conn.id, wanted, now);
  if (known) return known;
  const { exists, jid } = await deps.channels.checkNumber(conn.companyId, conn.id, wanted);
  if (!exists) {
    throw new AppError("ERR_WAPP_INVALID_CONTACT", {
      status: 400,
      message: `${wanted} is not a valid WhatsApp number`,
      fields: { number: "ERR_WAPP_INVALID_CONTACT" },
    });
  }
  return cache.confirm(conn.id, wanted, jid, now);
}

/** The contact of `number`, created (named `name`, else by its number) when new; campaigns share it. */
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

/** The ticket the message joins (module doc); scheduled messages choose theirs by the same rule. */
export async function ticketOf(
  deps: AppDeps,
  conn: Whatsapp,
  contact: Contact,
  input: Pick<ExternalSend, "openTicket" | "queueId">,
): Promise<Ticket> {
  const { system } = deps;
  const { companyId } = conn;
  const queueId = input.queueId ?? null;
  const active = (await deskState(system, companyId)).index.activeOf(contact.id, conn.id);
  if (active) {
    if (input.openTicket === 1 && active.queueId === null && queueId !== null) {
      return await moveTicketToQueue(system, companyId, active.id, queueId);
    }
    return active;
  }
  if (input.openTicket === 1) {
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
    who: apiPrincipal(companyId),
    settings: await companySettings(system, companyId),
  });
}

/** Sends one accepted request through connection `conn`; see the module doc. */
export async function sendExternal(deps: AppDeps, conn: Whatsapp, input: ExternalSend): Promise<ExternalSendReply> {
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
  let ticket = await ticketOf(deps, conn, contact, input);
  const views: MessageView[] = [];
  if (input.medias?.length) {
    for (const { file, caption } of input.medias) {
      const stored = await saveMedia(deps.config.dataDir, companyId, file.name, file.stream(), file.type);
      const sent = await sendOutgoing(deps, ticket, {
        body: caption || file.name,
        mediaType: mediaTypeOfMime(file.type),
        media: { file: stored, name: file.name, mimetype: file.type || "application/octet-stream" },
      }, contact);
      views.push(sent.view);
    }
  } else {
    views.push((await sendOutgoing(deps, ticket, { body: input.body ?? "" }, contact)).view);
  }
  ticket = (await deskState(deps.system, companyId)).index.byId.get(ticket.id) ?? ticket;
  return {
    message: SENT_TEXT,
    number,
    contact: { id: contact.id, name: contact.name, number: contact.number },
    ticket: { id: ticket.id, uuid: ticket.uuid, status: ticket.status, queueId: ticket.queueId },
    messages: views.map((v) => ({
      id: v.id,
      body: v.body,
      mediaType: v.mediaType,
      ack: v.ack,
      fromMe: v.fromMe,
      createdAt: v.createdAt,
    })),
  };
}
