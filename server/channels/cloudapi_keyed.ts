/**
 * Keyed sends on the WhatsApp Cloud API (campaigns' crash recovery). The Graph API has no
 * idempotency header and no way to look a sent message up, so the adapter keeps its own ledger
 * per key and lets Meta close the gap:
 *
 * - before the POST, an attempt marker `{ providerId: null, attemptAt }` is written; the POST
 *   carries the key as `biz_opaque_callback_data`, which Meta echoes in every status webhook of
 *   that message (sent, delivered, read, failed);
 * - Graph's answer records the wamid; a status webhook carrying the key records it too, so a
 *   crash between Graph's accept and our record is repaired by the `sent` status (which Meta
 *   retries for days if we are down);
 * - a repeat of a key with a wamid answers that wamid and sends nothing; a repeat that finds
 *   only a recent attempt throws (a passing failure: the campaign tries again in seconds) until
 *   a status names the wamid, or until `CLOUD_RESEND_GRACE_MS` passed without one: then the
 *   first attempt is taken as lost and the message goes out again. So exactly once unless
 *   Meta accepted a message whose status webhook does not reach us within the grace (our
 *   webhook down for longer): then at least once.
 * - an error that proves nothing was sent (Graph's refusal, the closed window) drops the marker
 *   at once; a network failure or timeout of the POST keeps it (the outcome is unknown).
 */
import { AppError } from "../../domain/errors.ts";
import { log } from "../../actors/_runtime/log.ts";

/** How long a repeat waits for the status of an unrecorded attempt before sending again. */
export const CLOUD_RESEND_GRACE_MS = 60_000;
/** Ledger entries outlive Meta's webhook retries (up to 7 days) with a margin. */
const LEDGER_TTL_MS = 14 * 24 * 3600_000;

export const cloudKeyedKey = (companyId: number, whatsappId: number, key: string): Deno.KvKey => [
  "cloudapi_keyed",
  companyId,
  whatsappId,
  key,
];

/** One key's state: the wamid once known, and when the (last) attempt began. */
export interface CloudKeyedEntry {
  providerId: string | null;
  attemptAt: number;
}

/** Where the ledger is: the connection's store and ids. */
export interface CloudKeyedScope {
  kv: Deno.Kv;
  companyId: number;
  whatsappId: number;
}

/**
 * Sends once per key (module doc): `send` runs only when no wamid is known for `key` and no
 * recent attempt may still have gone through; `refused(error)` says an error proves nothing
 * was sent, which drops the marker.
 */
export async function keyedSend(
  scope: CloudKeyedScope,
  key: string,
  send: () => Promise<{ providerId: string }>,
  refused: (error: unknown) => boolean,
): Promise<{ providerId: string }> {
  const ledger = cloudKeyedKey(scope.companyId, scope.whatsappId, key);
  const seen = (await scope.kv.get<CloudKeyedEntry>(ledger)).value;
  if (seen?.providerId) return { providerId: seen.providerId };
  const now = Date.now();
  if (seen && now - seen.attemptAt < CLOUD_RESEND_GRACE_MS) {
    throw new AppError("ERR_SENDING_WAPP_MSG", {
      status: 502,
      message: `An earlier attempt of ${key} may have reached the Cloud API; waiting for its status before sending again`,
    });
  }
  if (seen) log.warn(`Cloud API send ${key}: no status for the attempt of ${new Date(seen.attemptAt).toISOString()}, sending again`);
  await scope.kv.set(ledger, { providerId: null, attemptAt: now } satisfies CloudKeyedEntry, { expireIn: LEDGER_TTL_MS });
  let sent: { providerId: string };
  try {
    sent = await send();
  } catch (error) {
    if (refused(error)) await scope.kv.delete(ledger);
    throw error;
  }
  await scope.kv.set(ledger, { providerId: sent.providerId, attemptAt: now } satisfies CloudKeyedEntry, { expireIn: LEDGER_TTL_MS });
  return sent;
}

/** A status webhook named `key` (its biz_opaque_callback_data): the wamid of that key's message. */
export async function noteKeyedStatus(scope: CloudKeyedScope, key: string, providerId: string): Promise<void> {
  const ledger = cloudKeyedKey(scope.companyId, scope.whatsappId, key);
  const seen = await scope.kv.get<CloudKeyedEntry>(ledger);
  if (seen.value?.providerId) return;
  await scope.kv.atomic()
    .check(seen)
    .set(ledger, { providerId, attemptAt: seen.value?.attemptAt ?? Date.now() } satisfies CloudKeyedEntry, { expireIn: LEDGER_TTL_MS })
    .commit();
}
