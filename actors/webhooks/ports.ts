/**
 * What the delivery actor needs from its host: the HTTP call (signing, timeout, address
 * checks: server/webhooks/sender.ts) and the retry schedule from the configuration. Bound
 * per actor system in server/start.ts (through server/webhooks/mod.ts), so the actor never
 * imports server/. A timer delivered before the host bound them (a restart's first moments)
 * waits for them.
 */
import type { ActorSystem } from "../_runtime/system.ts";
import type { RetryPolicy } from "../../domain/webhook.ts";

/** One POST to make. */
export interface WebhookRequest {
  url: string;
  secret: string;
  /** `timestamped`: HMAC of `timestamp.body` (subscriptions); `body`: HMAC of the body (a connection's webhook). */
  signing: "timestamped" | "body";
  deliveryId: string;
  event: string;
  body: string;
}

/** How one try went: the answer's status (null: none), its duration, and what failed. */
export interface AttemptResult {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

export interface WebhookPorts {
  /** Makes one try; never throws (a failure is a result). */
  post(request: WebhookRequest): Promise<AttemptResult>;
  readonly retry: RetryPolicy;
  /** 0..1 for the backoff's jitter. */
  random(): number;
}

const bound = new WeakMap<ActorSystem, PromiseWithResolvers<WebhookPorts> & { value?: WebhookPorts }>();

function slot(system: ActorSystem) {
  let entry = bound.get(system);
  if (!entry) bound.set(system, entry = Promise.withResolvers<WebhookPorts>());
  return entry;
}

/** Binds the host's ports to `system` (once, at start-up). */
export function bindWebhookPorts(system: ActorSystem, ports: WebhookPorts): void {
  const entry = slot(system);
  if (entry.value) throw new Error("Webhook ports are already bound to this actor system");
  entry.value = ports;
  entry.resolve(ports);
}

/** The ports of `system`, once bound. */
export function webhookPorts(system: ActorSystem): Promise<WebhookPorts> {
  return slot(system).promise;
}

/** The ports if already bound (the actor's handlers read the policy without waiting). */
export function webhookPortsNow(system: ActorSystem): WebhookPorts | undefined {
  return slot(system).value;
}
