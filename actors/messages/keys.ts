/**
 * KV keys of messages (DESIGN §3). Seeders (the tickets benchmark) write with these builders:
 * a message, its log entry, and the ticket's meta record.
 *
 * - `["message", companyId, ticketId, messageId] → Message` as bytes (stored.ts: every read
 *   goes through `storedMessage`, which also reads an older store's object; ids sort by time:
 *   a page is one reverse `kv.list` with a limit);
 * - `["provider_log", companyId, "<time>~…"] → [messageId, providerId | null, …]`, the message
 *   log: one entry per message, written in the same atomic as the message, the entries of one
 *   commit as one value (the committer's `append`, actors/_runtime/appended_log.ts; keyed by
 *   the commit's time, so values sort in the order they were written); the send result that
 *   gives a message its provider id writes `["provider_log", companyId, messageId] →
 *   providerId`, the one-entry-per-key form every entry had before. It serves two readers
 *   (issue #34: each key a message writes costs about a quarter of the ingest ceiling, and
 *   these were two keys; then one per message, now a share of one per commit):
 *   - the in-memory provider index is built from its provider ids (provider_index.ts), so a
 *     message delivered twice is stored once (a null entry holds none);
 *   - a start replays the message-search index from it (search_store.ts `loggedSince`):
 *     message ids begin with the actor's clock at the append, and a commit's value sorts by
 *     the commit's time, taken after its messages were appended, so the entries since a time
 *     are one range of keys (the replay starts a minute before the save's time anyway).
 *   Keys sort by time, so each value appends at one end of KV's B-tree. The key keeps
 *   its first name, `provider_log`, so stores written before it took the second job need no
 *   migration: their messages without a provider id have no entry, and were logged in
 *   `search_log` instead;
 * - `["message_by_provider", companyId, providerId] → [ticketId, messageId]`: what stores
 *   written before the log hold instead. Still read when an index is built and deleted with
 *   its message, never written: its random keys made it the costliest write of an inbound
 *   message (provider_index.ts);
 * - `["message_meta", companyId, ticketId] → MessageMeta`: a checkpoint of the count and the
 *   newest id, written every few messages; a ticket's message actor activates with one
 *   `kv.get` and a list of the messages after the checkpoint. A seeder that skips it is
 *   tolerated: the actor then counts the ticket's messages once on activation.
 * - `["search_log", companyId, at, messageId] → null`, written in the same atomic as an edit
 *   of a message's text (`at`: the actor's clock): with the message log, what a start replays
 *   on top of the message-search index it loads (search_store.ts). (Stores written before
 *   issue #34 also hold one for every new message.) A seeder that writes messages around the
 *   log must forget that saved index.
 */

/** The key of one message. */
export function messageKey(companyId: number, ticketId: number, messageId: string): Deno.KvKey {
  return ["message", companyId, ticketId, messageId];
}

/** The prefix of every message of a ticket. */
export function ticketMessagesPrefix(companyId: number, ticketId: number): Deno.KvKey {
  return ["message", companyId, ticketId];
}

/** The prefix of every message of a company (the search index build reads it). */
export function companyMessagesPrefix(companyId: number): Deno.KvKey {
  return ["message", companyId];
}

/** A message's entry in the message log, its provider id or null (see the module doc). */
export function messageLogKey(companyId: number, messageId: string): Deno.KvKey {
  return ["provider_log", companyId, messageId];
}

/** The prefix of a company's message log (provider_index.ts and search_store.ts read it). */
export function messageLogPrefix(companyId: number): Deno.KvKey {
  return ["provider_log", companyId];
}

/**
 * Where the message log's entries of ids stamped at `at` or later begin: a message id begins
 * with its time in 13 digits (domain/message.ts `messageId`).
 */
export function messageLogFrom(companyId: number, at: number): Deno.KvKey {
  return ["provider_log", companyId, String(Math.max(0, Math.floor(at))).padStart(13, "0")];
}

/** The entry an older store holds for a provider id (see the module doc). */
export function legacyProviderKey(companyId: number, providerId: string): Deno.KvKey {
  return ["message_by_provider", companyId, providerId];
}

/** The prefix of a company's older provider entries. */
export function legacyProviderPrefix(companyId: number): Deno.KvKey {
  return ["message_by_provider", companyId];
}

/** What an older provider entry holds. */
export type LegacyProviderRef = [ticketId: number, messageId: string];

/** The per-ticket meta record. */
export function metaKey(companyId: number, ticketId: number): Deno.KvKey {
  return ["message_meta", companyId, ticketId];
}

/** The value of `metaKey`: how many messages the ticket has and its newest id. */
export interface MessageMeta {
  count: number;
  lastId: string | null;
}

/** The search log entry of a message edited at `at` (see the module doc). */
export function searchLogKey(companyId: number, at: number, messageId: string): Deno.KvKey {
  return ["search_log", companyId, at, messageId];
}

/** The prefix of a company's search log. */
export function searchLogPrefix(companyId: number): Deno.KvKey {
  return ["search_log", companyId];
}

/**
 * The durable outbox entry of an outgoing message, `["outbox", companyId, whatsappId,
 * messageId] → OutboundRequest`: written in the same atomic as the message (actor.ts
 * `append`), deleted once the channel's result is recorded (server/channels/live_session.ts).
 * A message stored for sending is therefore always either sent, failed or still in the
 * outbox, whatever stops the process in between; a session replays its outbox when it
 * connects.
 */
export function outboxKey(r: { companyId: number; whatsappId: number; messageId: string }): Deno.KvKey {
  return ["outbox", r.companyId, r.whatsappId, r.messageId];
}
