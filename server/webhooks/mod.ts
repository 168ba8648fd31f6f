/**
 * Outbound webhooks at start-up (issue #22): registers the actors, binds the delivery actor's
 * ports (the HTTP sender and the retry schedule from the configuration) and starts the router
 * that turns bus events into deliveries. Called once by server/start.ts.
 */
import { bindWebhookPorts, webhookDeliveries, webhookSubscriptions } from "../../actors/webhooks/mod.ts";
import { DEFAULT_RETRY, type RetryPolicy } from "../../domain/webhook.ts";
import type { AppDeps } from "../deps.ts";
import { WebhookRouter } from "./router.ts";
import { postDelivery } from "./sender.ts";

/** The retry schedule: the defaults with the configuration's overrides (tests shorten it). */
export function retryPolicy(overrides: Partial<RetryPolicy> | undefined): RetryPolicy {
  return { ...DEFAULT_RETRY, ...overrides };
}

/** Starts outbound webhooks for `deps`' server; returns the router (closed with the server). */
export function startWebhooks(deps: Pick<AppDeps, "system" | "bus" | "config">): WebhookRouter {
  const { system, config } = deps;
  system.register(webhookSubscriptions.actor, webhookDeliveries);
  const retry = retryPolicy(config.webhookRetry);
  bindWebhookPorts(system, {
    retry,
    random: Math.random,
    post: (request) => postDelivery(request, { timeoutMs: retry.timeoutMs, allowPrivate: config.webhookAllowPrivate === true }),
  });
  return new WebhookRouter(system, deps.bus);
}
