/**
 * KV keys of messages (DESIGN §3). Seeders (the tickets benchmark) write with these builders:
 * a message, its provider-id index when it has one, and the ticket's meta record.
 *
 * - `["message", companyId, ticketId, messageId] → Message` (ids sort by time: a page is one
 *   reverse `kv.list` with a limit);
 * - `["message_by_provider", companyId, providerId] → [ticketId, messageId]`, written in the
 *   same atomic as the message, so a message delivered twice is stored once. Provider ids
 *   look random, so each entry lands at a random place in SQLite's B-tree (and in KV's
 *   expiration index, which mirrors the key order): it is the costliest write of an inbound
 *   message. KV alone sustains 7.8k such messages/s on a 2-core VM, 16k with ids in
 *   order (bench/ingest.ts `--kv-floor`, with and without `--sequential-ids`);
 * - `["message_meta", companyId, ticketId] → MessageMeta`: a checkpoint of the count and the
 *   newest id, written every few messages; a ticket's message actor activates with one
 *   `kv.get` and a list of the messages after the checkpoint. A seeder that skips it is
 *   tolerated: the actor then counts the ticket's messages once on activation.
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

/** The dedupe index: provider id → `[ticketId, messageId]`. */
export function providerKey(companyId: number, providerId: string): Deno.KvKey {
  return ["message_by_provider", companyId, providerId];
}

/** The prefix of a company's dedupe index (provider_filter.ts scans it). */
export function providerKeysPrefix(companyId: number): Deno.KvKey {
  return ["message_by_provider", companyId];
}

/** What the provider index stores. */
export type ProviderRef = [ticketId: number, messageId: string];

/** The per-ticket meta record. */
export function metaKey(companyId: number, ticketId: number): Deno.KvKey {
  return ["message_meta", companyId, ticketId];
}

/** The value of `metaKey`: how many messages the ticket has and its newest id. */
export interface MessageMeta {
  count: number;
  lastId: string | null;
}
