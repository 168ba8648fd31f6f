/**
 * The HTTP side of a webhook delivery (the delivery actor's `post` port): signs the body
 * (domain/webhook.ts documents the headers), calls only public addresses unless the
 * configuration allows private ones (server/http/public_fetch.ts: checked after DNS, for a
 * subscription and a connection's webhook alike), does not follow redirects (a 3xx is a
 * failed try), and times out.
 * Never throws: every failure is a result the actor records.
 */
import { WEBHOOK_HEADERS } from "../../domain/webhook.ts";
import { BlockedUrl, publicFetch } from "../http/public_fetch.ts";
import type { AttemptResult, WebhookRequest } from "../../actors/webhooks/mod.ts";
import { signBody } from "../channels/webhook.ts";
import { log } from "../../actors/_runtime/log.ts";

/** What the sender needs from the configuration. */
export interface SenderOptions {
  timeoutMs: number;
  /** BALCAO_WEBHOOK_ALLOW_PRIVATE: private and loopback receivers are let through. */
  allowPrivate: boolean;
}

/** The headers of one try at `timestamp` (Unix seconds). */
export async function deliveryHeaders(request: WebhookRequest, timestamp: number): Promise<Record<string, string>> {
  const signed = request.signing === "timestamped" ? `${timestamp}.${request.body}` : request.body;
  return {
    "content-type": "application/json",
    "user-agent": "Balcao-Webhooks/1",
    [WEBHOOK_HEADERS.event]: request.event,
    [WEBHOOK_HEADERS.delivery]: request.deliveryId,
    [WEBHOOK_HEADERS.timestamp]: String(timestamp),
    [WEBHOOK_HEADERS.signature]: await signBody(request.secret, signed),
  };
}

/** Makes one try of `request`. */
export async function postDelivery(request: WebhookRequest, options: SenderOptions): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await publicFetch(request.url, {
      method: "POST",
      headers: await deliveryHeaders(request, Math.floor(Date.now() / 1000)),
      body: request.body,
      signal: AbortSignal.timeout(options.timeoutMs),
    }, { allowPrivate: options.allowPrivate });
    await response.body?.cancel();
    const ok = response.status >= 200 && response.status < 300;
    return { statusCode: response.status, durationMs: elapsed(), error: ok ? null : `HTTP ${response.status}` };
  } catch (error) {
    return { statusCode: null, durationMs: elapsed(), error: failure(request.url, error, options.timeoutMs) };
  }
}

/**
 * What the delivery log says of a try that got no answer. A refused address and a closed port
 * read the same, so the log does not tell a tenant which internal addresses exist; only the
 * server's own log has the reason.
 */
function failure(url: string, error: unknown, timeoutMs: number): string {
  if (error instanceof DOMException && error.name === "TimeoutError") return `No answer within ${timeoutMs} ms`;
  if (error instanceof BlockedUrl) log.warn(`Webhook to ${url} refused: ${error.message}`);
  return `Could not connect to ${new URL(url).host}`;
}
