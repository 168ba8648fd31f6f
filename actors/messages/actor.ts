/**
 * The messages of one ticket: one actor per ticket (id `{companyId}:{ticketId}`), so writes
 * to a conversation serialize while different conversations run in parallel.
 *
 * It allocates time-ordered ids, writes each message with its message log entry in one unit
 * (the runtime commits it atomically, with the ticket's note: store.ts `storeAndNote`); the
 * log names its provider id for the provider index and lets a start replay the saved search
 * index (keys.ts). An edit of a text adds a search log entry. It checkpoints the ticket's
 * meta record every `CHECKPOINT` messages, and applies acks, send results, edits and deletes
 * in arrival order.
 *
 * Duplicates: the handler that writes a provider id checks it itself (`providerHolder`):
 * first among this ticket's writes still in flight, then in the company's provider index
 * (provider_index.ts), whose candidates are confirmed by reading the committed message (a
 * new id has none, so nearly every message needs no read). Checked inside the handler, no write of this actor
 * can land between the check and the append; a check by the caller alone (the inbound path
 * does one first, to skip a duplicate's contact and ticket work) could miss a copy whose
 * write landed between its read and the append.
 * A written message is kept in memory until its write is durable, so two changes to one
 * message in quick succession never read a stale copy from KV; then it is dropped
 * (`ctx.onDurable`): 10,000 live conversations would otherwise hold their recent messages
 * (and, before, the last 64 provider ids of each) for as long as the actors live, and every
 * one of them would outlive the young generation and feed V8's full collections.
 * Handlers do no asks: other actors (tickets) may call into this one while handling.
 */
import { type ActorContext, defineActor } from "../_runtime/actor.ts";
import { AppError, notFound } from "../../domain/errors.ts";
import { type Message, messageId } from "../../domain/message.ts";
import type { OutboundRequest } from "../../domain/channel.ts";
import { applyChange, type MessageChange } from "./change.ts";
import { providerIndex } from "./context.ts";
import {
  messageKey,
  type MessageMeta,
  outboxKey,
  metaKey,
  legacyProviderKey,
  messageLogKey,
  messageLogPrefix,
  searchLogKey,
  ticketMessagesPrefix,
} from "./keys.ts";
import { holderAmong, type MessageRef } from "./provider_index.ts";
import { loadTail, pushToTail, replaceInTail } from "./tail.ts";
import { messageValue, storedMessage, storedMessageOrNull } from "./stored.ts";

/**
 * The meta record is a checkpoint written every this many appends, not on each: activation
 * counts the few messages after it (see `loadMeta`), and an append writes one record less.
 */
const CHECKPOINT = 32;

/**
 * Messages deleted per `purge` message: three deletes each (the message, its provider log
 * entry and an older store's provider entry), under KV's 1000 per atomic.
 */
const PURGE_CHUNK = 300;

export interface TicketMessagesState {
  companyId: number;
  ticketId: number;
  count: number;
  lastId: string | null;
  /** Time part and counter of the newest id: the next id sorts after it. */
  lastAt: number;
  seq: number;
  /**
   * The newest version of each message whose write is still in flight, oldest write first:
   * usually none or one, so an array (a Map per conversation that grows and shrinks on every
   * message reallocated its table each time).
   */
  inFlight: Message[];
  /** The newest messages, oldest first, once a page read loaded them (see tail.ts). */
  tail: Message[] | null;
}

/** Reply of `newest`: the first page and what the conversation header needs with it. */
export interface NewestPage {
  messages: Message[];
  count: number;
}

/** A message to store: everything but what the actor assigns. */
export type MessageDraft = Omit<Message, "id" | "companyId" | "ticketId" | "createdAt" | "updatedAt">;

/**
 * An outgoing message's send, written to the outbox in the message's own unit (keys.ts
 * `outboxKey`), the actor filling in the message id.
 */
export type OutboxDraft = Omit<OutboundRequest, "messageId">;

/** Reply of `append`. */
export interface AppendResult {
  message: Message | null;
  /** Set when the provider id was already stored: the id of the stored copy. */
  duplicateOf: string | null;
}

/** Parses the actor id `{companyId}:{ticketId}`. */
export function parseActorId(id: string): { companyId: number; ticketId: number } {
  const [companyId, ticketId] = id.split(":").map(Number);
  if (!(companyId > 0) || !(ticketId > 0)) throw new Error(`Bad messages actor id ${id}`);
  return { companyId, ticketId };
}

/** The actor id of ticket `ticketId`'s messages. */
export function actorId(companyId: number, ticketId: number): string {
  return `${companyId}:${ticketId}`;
}

/**
 * The id of the message that holds `providerId`, if any: see the module doc. Synchronous
 * (no promise) when the answer needs no read, as for nearly every new id.
 */
function providerHolder(
  ctx: ActorContext<TicketMessagesState>,
  providerId: string,
): string | null | Promise<string | null> {
  const s = ctx.state;
  const writing = s.inFlight.findLast((m) => m.providerId === providerId);
  if (writing) return writing.id;
  const candidates = providerIndex(ctx.system).find(s.companyId, providerId);
  if (candidates instanceof Promise) return candidates.then((c) => confirmedHolder(ctx, c, providerId));
  return candidates.length === 0 ? null : confirmedHolder(ctx, candidates, providerId);
}

/** The id of the committed message among `candidates` that holds `providerId`. */
async function confirmedHolder(
  ctx: ActorContext<TicketMessagesState>,
  candidates: readonly MessageRef[],
  providerId: string,
): Promise<string | null> {
  const read = async (key: Deno.KvKey) => (await ctx.kv.get(key)).value;
  return (await holderAmong(ctx.state.companyId, candidates, providerId, read))?.messageId ?? null;
}

/**
 * The ticket's count and newest id: the meta checkpoint plus the messages written after it
 * (ids sort by time, so they are the keys after `lastId`). Without a checkpoint (a seeder, or
 * fewer than `CHECKPOINT` messages) every message of the ticket is counted once.
 */
async function loadMeta(kv: Deno.Kv, companyId: number, ticketId: number): Promise<MessageMeta> {
  const meta = (await kv.get<MessageMeta>(metaKey(companyId, ticketId))).value;
  const prefix = ticketMessagesPrefix(companyId, ticketId);
  let count = meta?.count ?? 0;
  let lastId = meta?.lastId ?? null;
  const selector = lastId ? { prefix, start: messageKey(companyId, ticketId, lastId) } : { prefix };
  for await (const entry of kv.list(selector)) {
    const id = String(entry.key[3]);
    if (id === meta?.lastId) continue;
    count++;
    lastId = id;
  }
  return { count, lastId };
}

/** Caches the written version until its write is durable (see the module doc). */
function keepUntilDurable(ctx: ActorContext<TicketMessagesState>, message: Message): void {
  const { inFlight } = ctx.state;
  const older = inFlight.findIndex((m) => m.id === message.id);
  if (older >= 0) inFlight.splice(older, 1);
  inFlight.push(message);
  ctx.onDurable(() => {
    const at = inFlight.indexOf(message);
    if (at >= 0) inFlight.splice(at, 1);
  });
}

async function current(
  state: TicketMessagesState,
  kv: Deno.Kv,
  id: string,
): Promise<Message | null> {
  const cached = state.inFlight.find((m) => m.id === id);
  if (cached) return cached;
  return storedMessageOrNull((await kv.get(messageKey(state.companyId, state.ticketId, id))).value);
}

/** `append` once the provider id is known to be new. */
function appendNew(
  ctx: ActorContext<TicketMessagesState>,
  draft: MessageDraft & { createdAt?: number; outbox?: OutboxDraft },
): AppendResult {
  const s = ctx.state;
  let at = Math.max(ctx.now, s.lastAt);
  let seq = at === s.lastAt ? s.seq + 1 : 0;
  if (seq > 999) {
    at = s.lastAt + 1;
    seq = 0;
  }
  const id = messageId(s.ticketId, at, seq);
  const { createdAt, outbox, ...fields } = draft;
  const message: Message = {
    ...fields,
    id,
    companyId: s.companyId,
    ticketId: s.ticketId,
    createdAt: createdAt ?? ctx.now,
    updatedAt: ctx.now,
  };
  s.lastAt = at;
  s.seq = seq;
  s.lastId = id;
  s.count++;
  ctx.set(messageKey(s.companyId, s.ticketId, id), messageValue(message));
  // One log entry serves the provider index and the search index's replay (keys.ts); a
  // commit's entries are one value (appended_log.ts).
  ctx.append(messageLogPrefix(s.companyId), `provider_log:${s.companyId}`, id, message.providerId);
  if (message.providerId !== null) providerIndex(ctx.system).add(s.companyId, message.providerId, id);
  if (outbox) ctx.set(outboxKey({ ...outbox, messageId: id }), { ...outbox, messageId: id } satisfies OutboundRequest);
  if (s.count % CHECKPOINT === 0) {
    ctx.set(metaKey(s.companyId, s.ticketId), { count: s.count, lastId: id } satisfies MessageMeta);
  }
  keepUntilDurable(ctx, message);
  if (s.tail) pushToTail(s.tail, message);
  return { message, duplicateOf: null };
}

export const messagesActor = defineActor({
  kind: "messages",
  idleMs: 2 * 60_000,
  async load(kv, id): Promise<TicketMessagesState> {
    const { companyId, ticketId } = parseActorId(id);
    const meta = await loadMeta(kv, companyId, ticketId);
    const lastAt = meta.lastId ? Number(meta.lastId.slice(0, 13)) : 0;
    const seq = meta.lastId ? Number(meta.lastId.slice(13, 16)) : 0;
    return {
      companyId,
      ticketId,
      count: meta.count,
      lastId: meta.lastId,
      lastAt,
      seq,
      inFlight: [],
      tail: null,
    };
  },
  /**
   * A new ticket's: no messages. Its tail waits for a page read, as any activation's does
   * (tail.ts). Started empty, it kept every message of every new conversation for the actor's
   * idle minutes, so a burst of new tickets moved each message into V8's old generation and
   * paid for it in full collections: at 10,000 messages/s offered the open loop's p99 was
   * 225–235 ms with it and 70–74 ms without (bench/ingest.ts, issue #34). A page read then
   * costs one short KV list, once per activation.
   */
  empty(id): TicketMessagesState {
    const { companyId, ticketId } = parseActorId(id);
    return { companyId, ticketId, count: 0, lastId: null, lastAt: 0, seq: 0, inFlight: [], tail: null };
  },
  handlers: {
    /** Stores a new message (once per provider id); replies with it or the duplicate's id. */
    append(ctx, draft: MessageDraft & { createdAt?: number; outbox?: OutboxDraft }): AppendResult | Promise<AppendResult> {
      if (draft.providerId === null) return appendNew(ctx, draft);
      const holder = providerHolder(ctx, draft.providerId);
      if (holder instanceof Promise) {
        return holder.then((id) => id ? { message: null, duplicateOf: id } : appendNew(ctx, draft));
      }
      return holder ? { message: null, duplicateOf: holder } : appendNew(ctx, draft);
    },

    /**
     * Deletes up to `PURGE_CHUNK` of the ticket's messages (with their provider-id entries);
     * replies with the media files they referenced and whether messages remain. The caller
     * repeats until none remain, then the meta record goes too.
     */
    async purge(ctx): Promise<{ files: string[]; more: boolean }> {
      const s = ctx.state;
      s.tail = []; // the ticket is going away: its first chunk already hides every message
      const files: string[] = [];
      let n = 0;
      for await (
        const entry of ctx.kv.list(
          { prefix: ticketMessagesPrefix(s.companyId, s.ticketId) },
          { limit: PURGE_CHUNK + 1 },
        )
      ) {
        if (n++ === PURGE_CHUNK) break;
        const stored = storedMessage(entry.value);
        const m = s.inFlight.find((w) => w.id === stored.id) ?? stored;
        ctx.delete(entry.key);
        ctx.delete(messageLogKey(s.companyId, m.id));
        if (m.providerId !== null) ctx.delete(legacyProviderKey(s.companyId, m.providerId));
        if (m.mediaUrl) files.push(m.mediaUrl);
      }
      const more = n > PURGE_CHUNK;
      if (!more) {
        ctx.delete(metaKey(s.companyId, s.ticketId));
        s.count = 0;
        s.inFlight.length = 0;
      }
      return { files, more };
    },

    /**
     * Applies `change` to message `id`. Replies with the new version, or null when nothing
     * changed. A missing message is null for provider-driven changes (acks may outlive a
     * deleted ticket) and 404 for agent edits and deletes.
     */
    async change(
      ctx,
      arg: { id: string; change: MessageChange },
    ): Promise<Message | null> {
      const s = ctx.state;
      const message = await current(s, ctx.kv, arg.id);
      if (!message) {
        if (arg.change.type === "edit" || arg.change.type === "delete") {
          throw notFound("ERR_NO_MESSAGE_FOUND", `Message ${arg.id} does not exist`);
        }
        return null;
      }
      if (arg.change.type === "sent") {
        const holder = await providerHolder(ctx, arg.change.providerId);
        if (holder && holder !== arg.id) {
          throw new AppError("ERR_CONFLICT", {
            status: 409,
            message: `Provider id ${arg.change.providerId} already belongs to message ${holder}`,
          });
        }
      }
      const next = applyChange(message, arg.change, ctx.now);
      if (!next) return null;
      ctx.set(messageKey(s.companyId, s.ticketId, next.id), messageValue(next));
      if (arg.change.type === "edit") ctx.set(searchLogKey(s.companyId, ctx.now, next.id), null);
      if (arg.change.type === "sent") {
        ctx.set(messageLogKey(s.companyId, next.id), arg.change.providerId);
        providerIndex(ctx.system).add(s.companyId, arg.change.providerId, next.id);
      }
      keepUntilDurable(ctx, next);
      if (s.tail) replaceInTail(s.tail, next);
      return next;
    },

    /** The newest `TAIL_SIZE` messages, oldest first, and the ticket's message count. */
    async newest(ctx): Promise<NewestPage> {
      const s = ctx.state;
      // A copy: a write that lands during the read leaves `inFlight`, and the read may not see it.
      s.tail ??= await loadTail(ctx.kv, s.companyId, s.ticketId, s.inFlight.slice());
      return { messages: s.tail.slice(), count: s.count };
    },
  },
});
