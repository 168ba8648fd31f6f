/**
 * The HTTP side of a webhook delivery (the delivery actor's `post` port): signs the body
 * (domain/webhook.ts documents the headers), refuses private addresses for subscriptions
 * unless the configuration allows them (the name is resolved first, so a public name that
 * points inside is refused too; a name that changes between this check and the connect is
 * not caught), does not follow redirects (a 3xx is a failed try), and times out.
 * Never throws: every failure is a result the actor records.
 */
import { isPrivateHost, WEBHOOK_HEADERS } from "../../domain/webhook.ts";
import type { AttemptResult, WebhookRequest } from "../../actors/webhooks/mod.ts";
import { signBody } from "../channels/webhook.ts";

/** What the sender needs from the configuration. */
export interface SenderOptions {
  timeoutMs: number;
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

/** Why `url` may not be called, or null when it may. */
async function addressProblem(url: string): Promise<string | null> {
  const host = new URL(url).hostname;
  if (isPrivateHost(host)) return `Refused: ${host} is a private address`;
  if (/^[\d.]+$/.test(host) || host.includes(":")) return null;
  const found = (await Promise.all([
    Deno.resolveDns(host, "A").catch(() => [] as string[]),
    Deno.resolveDns(host, "AAAA").catch(() => [] as string[]),
  ])).flat();
  if (found.length === 0) return `Cannot resolve ${host}`;
  const inside = found.find((ip) => isPrivateHost(ip));
  return inside ? `Refused: ${host} resolves to the private address ${inside}` : null;
}

/** Makes one try of `request`. */
export async function postDelivery(request: WebhookRequest, options: SenderOptions): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    if (request.checkAddress && !options.allowPrivate) {
      const problem = await addressProblem(request.url);
      if (problem) return { statusCode: null, durationMs: elapsed(), error: problem };
    }
    const response = await fetch(request.url, {
      method: "POST",
      headers: await deliveryHeaders(request, Math.floor(Date.now() / 1000)),
      body: request.body,
      redirect: "manual",
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    await response.body?.cancel();
    const ok = response.status >= 200 && response.status < 300;
    return { statusCode: response.status, durationMs: elapsed(), error: ok ? null : `HTTP ${response.status}` };
  } catch (error) {
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return { statusCode: null, durationMs: elapsed(), error: text.slice(0, 300) };
  }
}
