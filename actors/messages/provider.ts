/**
 * Changes to stored messages: from the channel (acks, send results, edits and deletes made
 * on the phone, all addressed by provider id) and from agents (edit and delete by message
 * id, which go through the channel first). Each change that changes something publishes
 * `appMessage { action: "update", message }`.
 */
import type { ActorSystem } from "../_runtime/system.ts";
import { getContact } from "../contacts/mod.ts";
import { getTicket } from "../tickets/mod.ts";
import { notFound } from "../../domain/errors.ts";
import type { Ack, Message } from "../../domain/message.ts";
import type { MessagesPorts } from "./ports.ts";
import type { MessageChange } from "./change.ts";
import { bindMessages, messagesContext, rememberEarlyAck, takeEarlyAck } from "./context.ts";
import { publishUpdated } from "./publish.ts";
import { changeStoredMessage, findByProvider, getMessage } from "./store.ts";

async function changeByProvider(
  system: ActorSystem,
  companyId: number,
  providerId: string,
  change: MessageChange,
): Promise<Message | null> {
  const where = await findByProvider(system, companyId, providerId);
  if (!where) return null;
  const next = await changeStoredMessage(system, companyId, where.ticketId, where.messageId, change);
  if (next) await publishUpdated(system, next);
  return next;
}

/**
 * A delivery ack from the provider (1–2 sent, 3 delivered, 4–5 read); acks only increase.
 * An ack that arrives before its message's provider id is recorded is kept for a minute and
 * applied by `recordSendResult`. Replies with the changed message, or null.
 */
export async function applyAck(
  system: ActorSystem,
  companyId: number,
  providerId: string,
  ack: Ack,
): Promise<Message | null> {
  const where = await findByProvider(system, companyId, providerId);
  if (!where) {
    const ctx = messagesContext(system);
    rememberEarlyAck(ctx, companyId, providerId, ack, system.now());
    // The send result may have been recorded meanwhile (see takeEarlyAck in recordSendResult).
    if (!await findByProvider(system, companyId, providerId)) return null;
  }
  return await changeByProvider(system, companyId, providerId, { type: "ack", ack });
}

/**
 * The outcome of one send attempt of message `messageId`: the provider id when it was sent,
 * or the error (`final` when no retry follows: the message then shows as failed).
 */
export async function recordSendResult(
  system: ActorSystem,
  companyId: number,
  ticketId: number,
  messageId: string,
  result: { providerId: string } | { error: string; final: boolean; code?: string },
): Promise<Message | null> {
  const change: MessageChange = "providerId" in result
    ? { type: "sent", providerId: result.providerId }
    : { type: "sendFailed", error: result.error, final: result.final, code: result.code };
  let next = await changeStoredMessage(system, companyId, ticketId, messageId, change);
  if ("providerId" in result) {
    const early = takeEarlyAck(messagesContext(system), companyId, result.providerId, system.now());
    if (early !== null) {
      next = await changeStoredMessage(system, companyId, ticketId, messageId, {
        type: "ack",
        ack: early,
      }) ?? next;
    }
  }
  if (next) await publishUpdated(system, next);
  return next;
}

/** The provider reported a sent message undeliverable (e.g. a Cloud API `failed` status). */
export function applyProviderFailure(
  system: ActorSystem,
  companyId: number,
  providerId: string,
  code: string,
): Promise<Message | null> {
  return changeByProvider(system, companyId, providerId, { type: "failed", code });
}

/** The sender edited a message on the phone. */
export function applyRemoteEdit(
  system: ActorSystem,
  companyId: number,
  providerId: string,
  body: string,
): Promise<Message | null> {
  return changeByProvider(system, companyId, providerId, { type: "edit", body });
}

/** The sender deleted a message for everyone on the phone. */
export function applyRemoteDelete(
  system: ActorSystem,
  companyId: number,
  providerId: string,
): Promise<Message | null> {
  return changeByProvider(system, companyId, providerId, { type: "delete" });
}

/**
 * An agent edits or deletes message `id`: the channel does it on the provider first (its
 * refusal, e.g. `ERR_DELETE_WAPP_MSG`, propagates and nothing changes here), then the stored
 * copy changes. A message never sent (no provider id) and a customer's message change only
 * here. Replies with the message as it now is.
 */
export async function agentChange(
  deps: MessagesPorts,
  message: Message,
  change: Extract<MessageChange, { type: "edit" } | { type: "delete" }>,
): Promise<Message> {
  bindMessages(deps);
  const { system } = deps;
  const ticket = await getTicket(system, message.companyId, message.ticketId);
  if (!ticket) throw notFound("ERR_NO_TICKET_FOUND", `Ticket ${message.ticketId} does not exist`);
  // Only the company's own messages change on the provider (edit, delete for everyone); a
  // customer's message deleted here is hidden in the product only.
  if (message.fromMe && message.providerId !== null && ticket.whatsappId !== null) {
    const contact = await getContact(system, message.companyId, ticket.contactId);
    const request = {
      companyId: message.companyId,
      whatsappId: ticket.whatsappId,
      to: contact?.number ?? "",
      isGroup: ticket.isGroup,
      providerId: message.providerId,
      fromMe: message.fromMe,
    };
    if (change.type === "edit") await deps.outbound.edit?.({ ...request, body: change.body });
    else await deps.outbound.delete?.(request);
  }
  const next = await changeStoredMessage(system, message.companyId, message.ticketId, message.id, change);
  if (!next) return (await getMessage(deps.kv, message.companyId, message.id)) ?? message;
  await publishUpdated(system, next);
  return next;
}
