/**
 * The inbound path (issue #4, DESIGN §6): a message the channel received (or the company's
 * own phone sent) becomes a stored message of the right ticket, exactly once.
 *
 * contact (find or create by number; for a group the group is the contact and the sender is
 * kept as `participant`) → ticket (the contact's open or pending ticket on this connection,
 * or a new one) → dedupe by provider id → media bytes to a file → message stored →
 * ticket's last message and unread count → `appMessage` create event.
 *
 * Under load (issue #4: 512 conversations at once) the path waits on KV, not on CPU, so it
 * waits as little as it can: the company's provider index (provider_index.ts) answers the
 * dedupe check for a new id without a read, the reads that confirm a known one are batched
 * with those of other messages, and a message is stored and noted on its ticket in one
 * commit's wait (store.ts `storeAndNote`).
 */
import { findOrCreateContact } from "../contacts/mod.ts";
import { openTicketForInbound } from "../tickets/mod.ts";
import type { InboundMessage } from "../../domain/channel.ts";
import { MAX_BODY } from "../../domain/message.ts";
import type { ActorSystem } from "../_runtime/system.ts";
import type { MessagesPorts } from "./ports.ts";
import { bindMessages, type MessagesContext, messagesContext } from "./context.ts";
import { removeMedia, saveMedia } from "./media_files.ts";
import type { MessageRef } from "./provider_index.ts";
import { publishCreated } from "./publish.ts";
import { findByProvider, messagesOf, storeAndNote } from "./store.ts";

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
  deps: MessagesPorts,
  companyId: number,
  whatsappId: number,
  msg: InboundMessage,
): Promise<InboundResult> {
  const { receiving } = bindMessages(deps);
  // One receipt per provider id at a time: a copy delivered while the first is on its way
  // waits for it and is then found by the dedupe read. So below, an inbound message that
  // passed the dedupe read is the only one with its provider id.
  const key = `${companyId}:${msg.providerId}`;
  for (let prior = receiving.get(key); prior; prior = receiving.get(key)) {
    await prior.catch(() => {});
  }
  const work = store(deps, companyId, whatsappId, msg);
  receiving.set(key, work);
  try {
    return await work;
  } finally {
    if (receiving.get(key) === work) receiving.delete(key);
  }
}

/** Where the message with this provider id is stored; its reads batched (see the module doc). */
function findProvider(
  system: ActorSystem,
  { reads }: MessagesContext,
  companyId: number,
  providerId: string,
): Promise<MessageRef | null> {
  return findByProvider(system, companyId, providerId, (key) => reads.get(key));
}

async function store(
  deps: MessagesPorts,
  companyId: number,
  whatsappId: number,
  msg: InboundMessage,
): Promise<InboundResult> {
  const { system } = deps;
  const context = messagesContext(system);
  const known = await findProvider(system, context, companyId, msg.providerId);
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
  // A ticket opened just now has no messages stored: its actor starts without reading.
  if (ticketCreated) messagesOf(system, companyId, ticket.id).created();

  // Most messages are text with no quote: no promise for them.
  const [mediaUrl, quoted] = msg.media || msg.quotedProviderId
    ? await Promise.all([
      msg.media
        ? saveMedia(deps.config.dataDir, companyId, msg.media.filename, msg.media.data, msg.media.mimetype)
        : null,
      msg.quotedProviderId ? findProvider(system, context, companyId, msg.quotedProviderId) : null,
    ])
    : [null, null];
  const draft = {
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
    createdAt: msg.timestamp > 0 ? msg.timestamp : system.now(),
  };
  // Stored and noted on its ticket in one commit's wait (store.ts `storeAndNote`). An
  // own-phone message may echo one the outbound path is recording right now (same provider
  // id): then nothing is stored and nothing noted.
  const { message, noted, duplicateOf } = await storeAndNote(system, companyId, ticket.id, draft);
  if (!message) {
    if (mediaUrl) await removeMedia(deps.config.dataDir, companyId, mediaUrl);
    return {
      ticketId: ticket.id,
      messageId: duplicateOf,
      duplicate: true,
      ticketCreated,
      contactCreated,
    };
  }
  await publishCreated(system, message, noted, contact);
  return { ticketId: ticket.id, messageId: message.id, duplicate: false, ticketCreated, contactCreated };
}
