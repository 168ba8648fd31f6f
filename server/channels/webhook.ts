/**
 * The connection's webhook (spec 001 §2.2): every inbound message is POSTed as JSON to the
 * connection's `webhook` URL with `X-Balcao-Signature: sha256=<hex HMAC of the body>` keyed
 * by the connection's token. Fire and forget with a short timeout: a slow or failing
 * receiver never delays the inbound path.
 */
import type { InboundMessage } from "../../domain/channel.ts";
import type { Whatsapp } from "../../domain/whatsapp.ts";

/** Header carrying the body's signature. */
export const SIGNATURE_HEADER = "X-Balcao-Signature";

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

/** Posts one inbound message to the connection's webhook, if it has one; never throws. */
export function postWebhook(
  record: Whatsapp,
  message: InboundMessage,
  stored: { ticketId: number; messageId: string } | null,
  timeoutMs = 5000,
): Promise<void> {
  if (!record.webhook) return Promise.resolve();
  const body = JSON.stringify({
    event: "message",
    companyId: record.companyId,
    whatsappId: record.id,
    ticketId: stored?.ticketId ?? null,
    messageId: stored?.messageId ?? null,
    message: { ...message, media: message.media ? { mimetype: message.media.mimetype, filename: message.media.filename } : undefined },
  });
  return (async () => {
    try {
      const response = await fetch(record.webhook, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          [SIGNATURE_HEADER]: await signBody(record.token, body),
        },
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
      await response.body?.cancel();
    } catch (error) {
      console.warn(`Webhook of connection ${record.id} failed:`, String(error));
    }
  })();
}
