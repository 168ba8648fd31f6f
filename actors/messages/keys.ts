/**
 * KV keys of messages (DESIGN §3). Seeders (the tickets benchmark) write with these builders:
 * a message, its provider log entry when it has a provider id, and the ticket's meta record.
 *
 * - `["message", companyId, ticketId, messageId] → Message` (ids sort by time: a page is one
 *   reverse `kv.list` with a limit);
 * - `["provider_log", companyId, messageId] → providerId`, written in the same atomic as the
 *   message (or as the send result that gave it its provider id): the durable record from
 *   which the in-memory provider index is built (provider_index.ts), so a message delivered
 *   twice is stored once. Message ids sort by time, so each entry appends at one end of
 *   KV's B-tree;
 * - `["message_by_provider", companyId, providerId] → [ticketId, messageId]`: what stores
 *   written before the log hold instead. Still read when an index is built and deleted with
 *   its message, never written: its random keys made it the costliest write of an inbound
 *   message (provider_index.ts);
 * - `["message_meta", companyId, ticketId] → MessageMeta`: a checkpoint of the count and the
 *   newest id, written every few messages; a ticket's message actor activates with one
 *   `kv.get` and a list of the messages after the checkpoint. A seeder that skips it is
 *   tolerated: the actor then counts the ticket's messages once on activation.
 * - `["search_log", companyId, at, messageId] → null`, written in the same atomic as a new
 *   message or an edit of its text (`at`: the actor's clock): what a start replays on top of
 *   the message-search index it loads (search_store.ts). A seeder that skips it must forget
 *   that saved index.
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

/** The log entry of the message that holds a provider id (see the module doc). */
export function providerLogKey(companyId: number, messageId: string): Deno.KvKey {
  return ["provider_log", companyId, messageId];
}

/** The prefix of a company's provider log (provider_index.ts scans it). */
export function providerLogPrefix(companyId: number): Deno.KvKey {
  return ["provider_log", companyId];
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

/** The search log entry of a message written or edited at `at` (see the module doc). */
export function searchLogKey(companyId: number, at: number, messageId: string): Deno.KvKey {
  return ["search_log", companyId, at, messageId];
}

/** The prefix of a company's search log. */
export function searchLogPrefix(companyId: number): Deno.KvKey {
  return ["search_log", companyId];
}
