/**
 * Outbound webhooks' actors (issue #22): the company's subscriptions (a collection) and one
 * delivery queue per target (deliveries.ts). Callers enqueue without waiting for any HTTP
 * call; the host binds the sender through ports.ts.
 */
import type { ActorSystem } from "../_runtime/system.ts";
import { type DeliveryView, deliveryView, type WebhookTarget } from "../../domain/webhook.ts";
import { type EnqueueArg, type TargetState, webhookDeliveries } from "./deliveries.ts";

export { webhookSubscriptions } from "./subscriptions.ts";
export { type EnqueueArg, webhookDeliveries } from "./deliveries.ts";
export { type AttemptResult, bindWebhookPorts, type WebhookPorts, type WebhookRequest } from "./ports.ts";

function ref(system: ActorSystem, companyId: number, target: WebhookTarget) {
  return system.ref(webhookDeliveries, `${companyId}:${target}`);
}

/**
 * Enqueues a delivery. The message enters the target's mailbox synchronously, so deliveries
 * enqueued one after the other keep that order; the promise settles once it is durable.
 */
export function enqueueDelivery(
  system: ActorSystem,
  companyId: number,
  target: WebhookTarget,
  arg: EnqueueArg,
): Promise<string> {
  return ref(system, companyId, target).ask("enqueue", arg);
}

/** A target's log: the newest `limit` deliveries (pending first-class), and its backoff. */
export async function deliveryLog(system: ActorSystem, companyId: number, target: WebhookTarget, limit = 100): Promise<{
  deliveries: DeliveryView[];
  pending: number;
  failures: number;
  retryAt: number | null;
}> {
  const s = await ref(system, companyId, target).peek<TargetState>();
  const newest = [...s.done, ...s.pending.values()].sort((a, b) => b.seq - a.seq).slice(0, limit);
  return {
    deliveries: newest.map(deliveryView),
    pending: s.pending.size,
    failures: s.failures,
    retryAt: s.failures > 0 ? s.retryAt : null,
  };
}

/** Sends a finished delivery again as a new one; replies with the new delivery's id. */
export function resendDelivery(system: ActorSystem, companyId: number, target: WebhookTarget, id: string): Promise<string> {
  return ref(system, companyId, target).ask("resend", { id });
}

/** Makes the target look at its queue now (a subscription switched on or edited). */
export function kickTarget(system: ActorSystem, companyId: number, target: WebhookTarget): Promise<void> {
  return ref(system, companyId, target).ask("kick", null);
}

/** Drops every delivery of a target (its subscription was deleted). */
export function purgeTarget(system: ActorSystem, companyId: number, target: WebhookTarget): Promise<void> {
  return ref(system, companyId, target).ask("purge", null);
}
