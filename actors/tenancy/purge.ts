/**
 * Purging a deleted company's tenant data (DESIGN §3): every KV key of the form
 * `[kind, companyId, ...]` (and `["counter", name, companyId]`), its armed actor timers, and its
 * live actors, so nothing stale answers afterwards. Collection kinds are derived from the
 * actors registered with the system (`collection:{name}`); the other tenant stores are named
 * from their keys modules.
 */
import type { ActorSystem } from "../_runtime/system.ts";
import { companyMessagesPrefix } from "../messages/keys.ts";
import { companyTicketsPrefix, ticketCounterKey } from "../tickets/keys.ts";

/** Tenant stores that are not collections: `[kind, companyId, ...]`. */
const TENANT_KINDS = [
  "contact",
  // Armed actor timers (actors/_runtime/timers.ts).
  "timer",
  "provider_log",
  "message_by_provider",
  "message_meta",
  // The saved message-search index and its log (actors/messages/search_store.ts).
  "search_index",
  "search_log",
  // Snapshots of the ticket desk and the contacts, and their marks (record_snapshot.ts).
  "ticket_snapshot",
  "ticket_mark",
  "contact_snapshot",
  "contact_mark",
  "session",
  // Dropped-connection alerts (actors/sessions/alerts.ts).
  "connection_alert",
  "outbox",
  "baileys_auth",
  "ticket_tracking",
  // Tickets' latest-message fields (actors/tickets/latest.ts).
  "ticket_latest",
  // Transitions' effects not yet applied (domain/ticket_effects.ts).
  "ticket_effect",
  // Ratings: the surveys sent and the chat waits (actors/ratings/surveys.ts). Their public
  // keys (`rating_survey_key`) are global and answer nothing once the survey is gone.
  "rating_survey",
  "rating_wait",
  "schedule",
  // Outbound webhooks: deliveries and each target's backoff (actors/webhooks/deliveries.ts).
  "webhook_delivery",
  "webhook_target",
  // Internal chats: records, messages and memberships (actors/chats/keys.ts).
  "chat",
  "chat_message",
  "chat_member",
  // The audit log and its per-user index (actors/audit/actor.ts): they would otherwise wait
  // out their 90-day expiry, naming a company that no longer exists.
  "audit",
  "audit_by_user",
  // Dashboard counters, their rebuild marker and the leads/ratings rows (actors/dashboard).
  "dash",
  "dash_built",
  "dash_row",
  // Billing (actors/invoices/keys.ts); the platform-wide indexes then name no record.
  "invoice",
  "payment",
  "invoice_meta",
] as const;

/** Counters kept as `["counter", name, companyId]` by non-collection actors. */
const TENANT_COUNTERS = ["contact", "schedule", "chat", "payment"] as const;

/** Most deletes one `kv.atomic` may hold. */
export const PURGE_BATCH = 1000;

/** Collection names among the registered actor kinds (`collection:{name}`). */
function collectionNames(system: ActorSystem): string[] {
  return system.kinds.filter((k) => k.startsWith("collection:")).map((k) => k.slice(11));
}

/** Every KV prefix that holds tenant data of `companyId`. */
export function tenantPrefixes(system: ActorSystem, companyId: number): Deno.KvKey[] {
  const prefixes: Deno.KvKey[] = [
    companyTicketsPrefix(companyId),
    ticketCounterKey(companyId),
    companyMessagesPrefix(companyId),
    ...TENANT_KINDS.map((kind) => [kind, companyId]),
    ...TENANT_COUNTERS.map((name) => ["counter", name, companyId]),
  ];
  for (const name of collectionNames(system)) {
    prefixes.push([name, companyId], ["counter", name, companyId]);
  }
  return prefixes;
}

/** True for an actor id addressing company `companyId` (`"{id}"` or `"{id}:…"`). */
export function isTenantActorId(companyId: number, actorId: string): boolean {
  return actorId === String(companyId) || actorId.startsWith(`${companyId}:`);
}

/** Keys under `prefix`, plus `prefix` itself when it is a whole key (a counter). */
async function keysUnder(kv: Deno.Kv, prefix: Deno.KvKey): Promise<Deno.KvKey[]> {
  const keys = await Array.fromAsync(kv.list({ prefix }, { batchSize: PURGE_BATCH }), (e) => e.key);
  if ((await kv.get(prefix)).versionstamp !== null) keys.push(prefix);
  return keys;
}

/**
 * Armed timers of the company's actors in an older store's layout (`["timer", kind, actorId,
 * timerId]`; today's, `["timer", companyId, …]`, is a tenant prefix), and the entries of their
 * timer wheels (`["timer_wheel", kind, actorId, timerId]`, _runtime/timer_wheel.ts).
 */
async function tenantTimers(system: ActorSystem, companyId: number): Promise<Deno.KvKey[]> {
  const keys: Deno.KvKey[] = [];
  for (const kind of system.kinds) {
    for (const root of ["timer", "timer_wheel"]) {
      for await (const entry of system.kv.list({ prefix: [root, kind] })) {
        if (isTenantActorId(companyId, String(entry.key[2]))) keys.push(entry.key);
      }
    }
  }
  return keys;
}

/** Deletes `keys` in atomics of at most PURGE_BATCH deletes. */
async function deleteInBatches(kv: Deno.Kv, keys: Deno.KvKey[]): Promise<void> {
  for (let i = 0; i < keys.length; i += PURGE_BATCH) {
    const op = kv.atomic();
    for (const key of keys.slice(i, i + PURGE_BATCH)) op.delete(key);
    const result = await op.commit();
    if (!result.ok) throw new Error(`Purge of ${keys.length} keys failed at batch ${i}`);
  }
}

/**
 * Removes every KV key and live actor of company `companyId`; resolves with the number of keys
 * deleted. The caller stops the company's channel sessions first and removes the company,
 * users and settings records through their collections.
 */
export async function purgeCompany(system: ActorSystem, companyId: number): Promise<number> {
  const isTenant = (_kind: string, id: string) => isTenantActorId(companyId, id);
  system.evictWhere(isTenant);
  const keys = (await Promise.all(
    tenantPrefixes(system, companyId).map((prefix) => keysUnder(system.kv, prefix)),
  )).flat();
  keys.push(...await tenantTimers(system, companyId));
  await deleteInBatches(system.kv, keys);
  // An actor a request activated meanwhile holds the records just deleted.
  system.evictWhere(isTenant);
  return keys.length;
}
