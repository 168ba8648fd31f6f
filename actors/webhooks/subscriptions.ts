/**
 * A company's webhook subscriptions (scope = company id), published to its admins on
 * `company-{id}-webhook` without the secret (domain/webhook.ts `subscriptionView`).
 */
import { companyChannel } from "../../domain/events.ts";
import { subscriptionView, WebhookSubscription } from "../../domain/webhook.ts";
import { defineCollection } from "../collection/mod.ts";

export const webhookSubscriptions = defineCollection<WebhookSubscription>({
  name: "webhook_sub",
  parse: (raw) => WebhookSubscription.parse(raw),
  events: (action, s) => [{
    companyId: s.companyId,
    channel: companyChannel(s.companyId, "webhook"),
    data: action === "delete" ? { action, webhookId: s.id } : { action, webhook: subscriptionView(s) },
    scope: { kind: "admins" },
  }],
});
