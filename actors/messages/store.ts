/**
 * Reads and writes of messages that every path shares: addressing the per-ticket actor,
 * the provider-id lookup, one message by id, a page of a ticket.
 */
import type { ActorSystem } from "../_runtime/system.ts";
import { type Message, parseMessageId } from "../../domain/message.ts";
import { actorId, type MessageDraft, messagesActor, type OutboxDraft, type TicketMessagesState } from "./actor.ts";
import type { EffectStep } from "../../domain/ticket_effects.ts";
import type { MessageChange } from "./change.ts";
import { noteStoredMessage } from "../tickets/mod.ts";
import type { NotedTicket } from "../tickets/actor.ts";
import { TAIL_SIZE } from "./tail.ts";
import { providerIndex } from "./context.ts";
import { messageKey, ticketMessagesPrefix } from "./keys.ts";
import { holderAmong, type MessageRef } from "./provider_index.ts";
import { storedMessage, storedMessageOrNull } from "./stored.ts";

/** The messages actor of ticket `ticketId`. */
export function messagesOf(system: ActorSystem, companyId: number, ticketId: number) {
  return system.ref(messagesActor, actorId(companyId, ticketId));
}

/** What `storeAndNote` did: the stored message and its ticket after the note, or the duplicate's id. */
export type StoredAndNoted =
  | { message: Message; noted: NotedTicket; duplicateOf: null }
  | { message: null; noted: null; duplicateOf: string };

/**
 * Stores `draft` in ticket `ticketId` and notes it on the ticket (preview, times, unread),
 * resolving once both are durable; a provider id already stored is a duplicate, and nothing
 * is noted. The two are one KV atomic (actors/_runtime/commit_link.ts): a crash never leaves
 * a stored message that its ticket does not know of (the auto-close would wait on the wrong
 * side, the inbox would show a stale preview and unread count), and the pair waits for one
 * commit, not two in a row.
 */
export async function storeAndNote(
  system: ActorSystem,
  companyId: number,
  ticketId: number,
  draft: MessageDraft & { createdAt?: number; outbox?: OutboxDraft },
  /** The message is a step of a transition's effects: the note marks it done (tickets/effects.ts). */
  effect?: EffectStep,
): Promise<StoredAndNoted> {
  const append = messagesOf(system, companyId, ticketId).askLinked("append", draft);
  append.durable.catch(() => {}); // awaited below, once the note is asked
  const { reply: { message, duplicateOf }, link } = await append.queued;
  try {
    if (!message) {
      link.alone();
      await append.durable;
      return { message: null, noted: null, duplicateOf: duplicateOf! };
    }
    const [, noted] = await Promise.all([append.durable, noteStoredMessage(system, message, link, effect)]);
    return { message, noted, duplicateOf: null };
  } finally {
    link.alone(); // on every path where the note never joined it
  }
}


/** Applies one change to a stored message; null when it changed nothing or is unknown. */
export function changeStoredMessage(
  system: ActorSystem,
  companyId: number,
  ticketId: number,
  id: string,
  change: MessageChange,
): Promise<Message | null> {
  return messagesOf(system, companyId, ticketId).ask("change", { id, change });
}

/**
 * Where the message with this provider id is stored (committed writes only): the provider
 * index's candidates, each confirmed by reading its message with `get` (the inbound path
 * batches those reads). An id the index does not hold costs no read.
 */
export async function findByProvider(
  system: ActorSystem,
  companyId: number,
  providerId: string,
  get: (key: Deno.KvKey) => Promise<unknown> = async (key) => (await system.kv.get(key)).value,
): Promise<MessageRef | null> {
  const candidates = await providerIndex(system).find(companyId, providerId);
  if (candidates.length === 0) return null;
  return await holderAmong(companyId, candidates, providerId, get);
}

/** One message of the company by id, or undefined. */
export async function getMessage(
  kv: Deno.Kv,
  companyId: number,
  id: string,
): Promise<Message | undefined> {
  const parsed = parseMessageId(id);
  if (!parsed) return undefined;
  const entry = await kv.get(messageKey(companyId, parsed.ticketId, id));
  return storedMessageOrNull(entry.value) ?? undefined;
}

/** How many messages ticket `ticketId` has (from its actor's memory). */
export async function messageCount(
  system: ActorSystem,
  companyId: number,
  ticketId: number,
): Promise<number> {
  return (await messagesOf(system, companyId, ticketId).peek<TicketMessagesState>()).count;
}

/**
 * Page `pageNumber` (1 = newest) of a ticket's messages, `size` per page, in the order the
 * conversation shows them (oldest first), with the ticket's message count. Page 1 comes from
 * the ticket actor's in-memory tail (tail.ts); older pages are one reverse `kv.list`.
 */
export async function pageOfMessages(
  system: ActorSystem,
  companyId: number,
  ticketId: number,
  pageNumber: number,
  size: number,
): Promise<{ messages: Message[]; hasMore: boolean; count: number }> {
  if (pageNumber === 1 && size <= TAIL_SIZE) {
    const { messages, count } = await messagesOf(system, companyId, ticketId).ask("newest", undefined);
    return { messages: messages.slice(-size), hasMore: count > size, count };
  }
  const skip = (pageNumber - 1) * size;
  const limit = skip + size + 1;
  const newestFirst: Message[] = [];
  let seen = 0;
  const [count] = await Promise.all([
    messageCount(system, companyId, ticketId),
    (async () => {
      for await (
        const entry of system.kv.list(
          { prefix: ticketMessagesPrefix(companyId, ticketId) },
          { reverse: true, limit, batchSize: Math.min(limit, 500) },
        )
      ) {
        if (seen >= skip && newestFirst.length < size) newestFirst.push(storedMessage(entry.value));
        seen++;
      }
    })(),
  ]);
  return { messages: newestFirst.reverse(), hasMore: seen > skip + size, count };
}

/** Every message of a ticket, oldest first (searchMessage; bounded by the ticket's size). */
export async function allMessages(kv: Deno.Kv, companyId: number, ticketId: number): Promise<Message[]> {
  const out: Message[] = [];
  for await (const entry of kv.list({ prefix: ticketMessagesPrefix(companyId, ticketId) })) {
    out.push(storedMessage(entry.value));
  }
  return out;
}

/**
 * Deletes every message of a deleted ticket (and their provider-id entries), in chunks
 * through the ticket's actor so no concurrent write is lost; replies with the media files
 * the messages referenced (the caller removes them).
 */
export async function purgeTicketMessages(
  system: ActorSystem,
  companyId: number,
  ticketId: number,
): Promise<string[]> {
  const files: string[] = [];
  for (;;) {
    const step = await messagesOf(system, companyId, ticketId).ask("purge", undefined);
    files.push(...step.files);
    if (!step.more) return files;
  }
}
