/**
 * The connection's webhook (spec 001 §2.2): every inbound message is POSTed as JSON to the
 * connection's `webhook` URL with `X-Balcao-Signature: sha256=<hex HMAC of the body>` keyed
 * by the connection's token (plus the delivery headers of domain/webhook.ts). It goes through
 * the outbound webhooks' delivery queue (actors/webhooks): durable, retried with backoff for
 * 24 h, in order per ticket, and the inbound path only enqueues it (no HTTP call is awaited).
 *
 * CRM keyword codes (spec 001 §2.4): when the webhook points at a CRM API
 * (domain/crm_webhook.ts `isCrmWebhook`), the payload also carries `keyword` and `code`: the
 * first row of the connection's keyword table that the message's text matches
 * (`keywordCodeFor`), or null for both when none does. Other webhooks get the payload as before.
 */
import type { ActorSystem } from "../../actors/_runtime/system.ts";
import { enqueueDelivery } from "../../actors/webhooks/mod.ts";
import type { InboundMessage } from "../../domain/channel.ts";
import { isCrmWebhook, keywordCodeFor } from "../../domain/crm_webhook.ts";
import type { Whatsapp } from "../../domain/whatsapp.ts";
import { log } from "../../actors/_runtime/log.ts";

/** Header carrying the body's signature. */
export const SIGNATURE_HEADER = "X-Balcao-Signature";

/** Constant-time comparison of two tokens. */
export function sameToken(a: string, b: string): boolean {
  if (a.length !== b.length || a.length === 0) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** `sha256=<hex>` of HMAC-SHA256(`secret`, `body`). */
export async function signBody(secret: string, body: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(body)));
  return "sha256=" + Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The body posted for one inbound message (the shape receivers had before the queue). */
export function connectionWebhookBody(
  record: Whatsapp,
  message: InboundMessage,
  stored: { ticketId: number; messageId: string } | null,
): string {
  const payload: Record<string, unknown> = {
    event: "message",
    companyId: record.companyId,
    whatsappId: record.id,
    ticketId: stored?.ticketId ?? null,
    messageId: stored?.messageId ?? null,
    message: { ...message, media: message.media ? { mimetype: message.media.mimetype, filename: message.media.filename } : undefined },
  };
  if (isCrmWebhook(record.webhook)) {
    const match = keywordCodeFor(message.body ?? "", record.keywords ?? []);
    payload.keyword = match?.keyword ?? null;
    payload.code = match?.code ?? null;
  }
  return JSON.stringify(payload);
}

/** Enqueues one inbound message for the connection's webhook, if it has one; never throws. */
export function postWebhook(
  system: ActorSystem,
  record: Whatsapp,
  message: InboundMessage,
  stored: { ticketId: number; messageId: string } | null,
): void {
  if (!record.webhook.trim()) return;
  const body = connectionWebhookBody(record, message, stored);
  const lane = stored ? `t${stored.ticketId}` : `n${message.from}`;
  enqueueDelivery(system, record.companyId, `w${record.id}`, { event: "message", lane, body }).catch((error) =>
    log.warn(`Webhook of connection ${record.id} could not be enqueued:`, { error: String(error) })
  );
}
