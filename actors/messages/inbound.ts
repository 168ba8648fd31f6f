/**
 * The inbound path (issue #4, DESIGN §6): a message the channel received (or the company's
 * own phone sent) becomes a stored message of the right ticket, exactly once.
 *
 * contact (find or create by number; for a group the group is the contact and the sender is
 * kept as `participant`) → ticket (the contact's open or pending ticket on this connection,
 * or a new one) → dedupe by provider id → media bytes to a file → message stored →
 * ticket's last message and unread count → `appMessage` create event.
 */
import { findOrCreateContact } from "../contacts/mod.ts";
import { noteMessage, openTicketForInbound } from "../tickets/mod.ts";
import type { InboundMessage } from "../../domain/channel.ts";
import { lastMessageText, MAX_BODY } from "../../domain/message.ts";
import type { AppDeps } from "../../server/deps.ts";
import { bindMessages } from "./context.ts";
import { removeMedia, saveMedia } from "./media_files.ts";
import { publishCreated } from "./publish.ts";
import { appendMessage, findByProvider } from "./store.ts";

/** What `receiveInbound` did. */
export interface InboundResult {
  ticketId: number;
  messageId: string;
  /** True when this provider id was already stored (nothing was written). */
  duplicate: boolean;
  ticketCreated: boolean;
  contactCreated: boolean;
}

/** Stores one inbound message of connection `whatsappId`; see the module doc. */
export async function receiveInbound(
  deps: AppDeps,
  companyId: number,
  whatsappId: number,
  msg: InboundMessage,
): Promise<InboundResult> {
  bindMessages(deps);
  const { system, kv } = deps;
  const known = await findByProvider(kv, companyId, msg.providerId);
  if (known) return { ...known, duplicate: true, ticketCreated: false, contactCreated: false };

  const number = msg.isGroup ? (msg.group?.id ?? msg.from) : msg.from;
  const name = msg.isGroup ? (msg.group?.name ?? msg.name) : msg.name;
  const { contact, created: contactCreated } = await findOrCreateContact(system, companyId, {
    number,
    name: name || number,
    isGroup: msg.isGroup,
    lid: msg.isGroup ? null : msg.lid ?? null,
  });
  const { ticket, created: ticketCreated } = await openTicketForInbound(system, companyId, {
    contactId: contact.id,
    whatsappId,
    isGroup: msg.isGroup,
    fromMe: msg.fromMe,
  });

  const mediaUrl = msg.media
    ? await saveMedia(deps.config.dataDir, companyId, msg.media.filename, msg.media.data, msg.media.mimetype)
    : null;
  const quoted = msg.quotedProviderId ? await findByProvider(kv, companyId, msg.quotedProviderId) : null;
  const { message, duplicateOf } = await appendMessage(system, companyId, ticket.id, {
    contactId: contact.id,
    body: msg.body.slice(0, MAX_BODY),
    fromMe: msg.fromMe,
    mediaType: msg.mediaType,
    mediaUrl,
    mediaName: msg.media?.filename ?? null,
    mimetype: msg.media?.mimetype ?? null,
    quotedMsgId: quoted?.messageId ?? null,
    isDeleted: false,
    isEdited: false,
    ack: msg.fromMe ? 1 : 0,
    read: msg.fromMe,
    providerId: msg.providerId,
    participant: msg.isGroup && msg.participant ? msg.participant : null,
    userId: null,
    failed: null,
    sendAttempts: 0,
    createdAt: msg.timestamp > 0 ? msg.timestamp : undefined,
  });
  if (!message) {
    if (mediaUrl) await removeMedia(deps.config.dataDir, companyId, mediaUrl);
    return {
      ticketId: ticket.id,
      messageId: duplicateOf!,
      duplicate: true,
      ticketCreated,
      contactCreated,
    };
  }
  const noted = await noteMessage(system, companyId, ticket.id, {
    preview: lastMessageText(message),
    fromMe: message.fromMe,
    at: message.createdAt,
    unread: !message.fromMe,
  });
  await publishCreated(system, message, noted, contact);
  return { ticketId: ticket.id, messageId: message.id, duplicate: false, ticketCreated, contactCreated };
}
