/**
 * The outbound path (DESIGN §6): a message from an agent, the bot or the system is stored
 * with ack 0 first (an outbox entry the client sees at once), then handed to the channel
 * through `deps.outbound`; the channel reports back with `recordSendResult` and acks.
 */
import { getContact } from "../contacts/mod.ts";
import { getTicket } from "../tickets/mod.ts";
import { companySettings } from "../platform/lookup.ts";
import { companyTimeZone } from "../../domain/closed_period.ts";
import { fillTemplate } from "../../domain/message_template.ts";
import type { MenuList } from "../../domain/bot_walker.ts";
import type { OutboundMessage, TemplateSend } from "../../domain/channel.ts";
import type { Contact } from "../../domain/contact.ts";
import { notFound } from "../../domain/errors.ts";
import { type Message, type MessageView, type Participant } from "../../domain/message.ts";
import type { Ticket } from "../../domain/ticket.ts";
import type { MessagesPorts } from "./ports.ts";
import { bindMessages } from "./context.ts";
import { mediaFilePath } from "./media_files.ts";
import { publishCreated, publishUpdated } from "./publish.ts";
import { changeStoredMessage, getMessage, storeAndNote } from "./store.ts";
import type { OutboxDraft } from "./actor.ts";
import type { EffectStep } from "../../domain/ticket_effects.ts";

/** An outgoing message before it is stored. */
export interface OutgoingDraft {
  body: string;
  mediaType?: Message["mediaType"];
  /** A stored media file of the company (name under its media folder). */
  media?: { file: string; name: string; mimetype: string } | null;
  quotedMsgId?: string | null;
  /** The agent who sends it; null for the bot and system texts. */
  userId?: number | null;
  participant?: Participant | null;
  /** A Cloud API template sent in place of the text (`body` then holds its rendered text). */
  template?: TemplateSend;
  /** The bot menu as a WhatsApp list (`body` holds it as text; domain/bot_walker.ts). */
  list?: MenuList;
}

/** What `sendOutgoing` replies: the stored message and its view. */
export interface SentMessage {
  message: Message;
  view: MessageView;
}

/**
 * Stores `draft` as a fromMe message of `ticket` (ack 0) with its outbox entry, notes it on the
 * ticket (all one atomic), publishes it and hands it to the channel. A send the channel
 * refuses outright is recorded as failed. `effect`: the message is a step of a transition's
 * effects, marked done in the same atomic (actors/tickets/effects.ts).
 */
export async function sendOutgoing(
  deps: MessagesPorts,
  ticket: Ticket,
  draft: OutgoingDraft,
  contact?: Contact,
  effect?: EffectStep,
): Promise<SentMessage> {
  const who = contact ?? await getContact(deps.system, ticket.companyId, ticket.contactId);
  const filled = draft.template ? draft : await filledDraft(deps, ticket.companyId, who, draft);
  const outbox = await outboxDraft(deps, ticket, who, filled);
  const sent = await storeOutgoing(deps, ticket, filled, who, outbox ?? undefined, effect);
  if (!outbox) {
    await failStored(deps, ticket, sent.message, `Ticket ${ticket.id} has no connection or contact to send through`);
    return sent;
  }
  try {
    await deps.outbound.send({ ...outbox, messageId: sent.message.id });
  } catch (error) {
    await failStored(deps, ticket, sent.message, error instanceof Error ? error.message : String(error));
  }
  return sent;
}

/**
 * `draft` with the customer-text variables filled (domain/message_template.ts) for `who` now,
 * in the company's zone: every sender passes here (agents and their quick replies, the bot,
 * greetings, farewells, rating and close texts, schedules, the external API), so no text of
 * theirs reaches a customer with `{{nome}}` in it. An agent who types a brace pair that names
 * a variable gets it filled too; that is the price of one rule for every text.
 */
async function filledDraft(deps: MessagesPorts, companyId: number, who: Contact | undefined, draft: OutgoingDraft): Promise<OutgoingDraft> {
  if (!draft.body.includes("{") && !draft.list) return draft;
  const settings = await companySettings(deps.system, companyId);
  const ctx = { name: who?.name ?? "", number: who?.number ?? "", email: who?.email ?? "", now: deps.system.now(), timeZone: companyTimeZone(settings) };
  const fill = (text: string) => fillTemplate(text, ctx);
  const list = draft.list && { ...draft.list, body: fill(draft.list.body) };
  return { ...draft, body: fill(draft.body), ...(list ? { list } : {}) };
}

/**
 * The storing half of `sendOutgoing`: the fromMe message in `ticket` (ack 0), noted on the
 * ticket and shown live, without handing it to a channel. For senders that went through the
 * connection themselves (campaigns send keyed and paced, then record the accept here).
 */
export async function storeOutgoing(
  deps: MessagesPorts,
  ticket: Ticket,
  draft: OutgoingDraft,
  who: Contact | undefined,
  outbox?: OutboxDraft,
  effect?: EffectStep,
): Promise<SentMessage> {
  bindMessages(deps);
  const { system } = deps;
  const companyId = ticket.companyId;
  const { message, noted } = await storeAndNote(system, companyId, ticket.id, {
    ...(outbox ? { outbox } : {}),
    contactId: ticket.contactId,
    body: draft.body,
    fromMe: true,
    mediaType: draft.mediaType ?? (draft.media ? "application" : "chat"),
    mediaUrl: draft.media?.file ?? null,
    mediaName: draft.media?.name ?? null,
    mimetype: draft.media?.mimetype ?? null,
    quotedMsgId: draft.quotedMsgId ?? null,
    isDeleted: false,
    isEdited: false,
    ack: 0,
    read: true,
    providerId: null,
    participant: draft.participant ?? null,
    userId: draft.userId ?? null,
    failed: null,
    sendAttempts: 0,
  }, effect);
  const stored = message!; // no provider id yet: never a duplicate
  const view = await publishCreated(system, stored, noted!, who);
  return { message: stored, view };
}

/** Records a stored message's send as failed for good, and shows it. */
async function failStored(deps: MessagesPorts, ticket: Ticket, message: Message, error: string): Promise<void> {
  const failed = await changeStoredMessage(deps.system, ticket.companyId, ticket.id, message.id, {
    type: "sendFailed",
    error,
    final: true,
  });
  if (failed) await publishUpdated(deps.system, failed);
}

/**
 * What the channel is to send for `draft` in `ticket` (the outbox entry written with the
 * message), or null when the ticket has no connection or contact to send through.
 */
async function outboxDraft(
  deps: MessagesPorts,
  ticket: Ticket,
  contact: Contact | undefined,
  draft: OutgoingDraft,
): Promise<OutboxDraft | null> {
  if (ticket.whatsappId === null || !contact) return null;
  const quoted = draft.quotedMsgId ? await getMessage(deps.kv, ticket.companyId, draft.quotedMsgId) : undefined;
  const mediaType = draft.mediaType ?? (draft.media ? "application" : "chat");
  const message: OutboundMessage = {
    to: contact.number,
    isGroup: ticket.isGroup,
    body: draft.body,
    media: draft.media
      ? {
        path: mediaFilePath(deps.config.dataDir, ticket.companyId, draft.media.file),
        mimetype: draft.media.mimetype || "application/octet-stream",
        filename: draft.media.name || draft.media.file,
        mediaType,
      }
      : undefined,
    quotedProviderId: quoted?.providerId ?? undefined,
    ...(draft.template ? { template: draft.template } : {}),
    ...(draft.list ? { list: draft.list } : {}),
  };
  return { companyId: ticket.companyId, whatsappId: ticket.whatsappId, ticketId: ticket.id, message };
}

/**
 * Sends a text of the system (greeting, farewell, bot menus, out-of-hours) in ticket
 * `ticketId`: stored fromMe with ack 0, then handed to the channel.
 */
export async function sendSystemMessage(
  deps: MessagesPorts,
  companyId: number,
  ticketId: number,
  body: string,
  effect?: EffectStep,
): Promise<Message> {
  const ticket = await getTicket(deps.system, companyId, ticketId);
  if (!ticket) throw notFound("ERR_NO_TICKET_FOUND", `Ticket ${ticketId} does not exist`);
  const { message } = await sendOutgoing(deps, ticket, { body }, undefined, effect);
  return message;
}
