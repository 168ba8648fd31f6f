/**
 * Operations of the outbound webhook subscriptions (issue #22, server/api/webhook_subscriptions.ts).
 * What a delivery looks like on the wire (headers, signature) is documented in
 * domain/webhook.ts; the document's `webhooks` section is the place to describe it.
 */
import { WebhookSubscriptionInput } from "../../domain/webhook.ts";
import { area, type Operation } from "./operation.ts";
import { DeliveryLog, MessageReply, WebhookSubscriptionView } from "./shapes.ts";

const hooks = area("Webhook subscriptions");
const access = "settings:manage (admin), plan flag useExternalApi";
const example = {
  url: "https://crm.example.com/balcao/events",
  events: ["message.created", "ticket.updated"],
  secret: "a-long-random-secret-0123456789",
  active: true,
};

/** The subscriptions and their delivery logs. */
export const WEBHOOK_OPERATIONS: Operation[] = [
  hooks.get("/webhooks/subscriptions", "The company's subscriptions, each with its pending count and last delivery", {
    access,
    errors: ["ERR_PLAN_FEATURE"],
  }),
  hooks.post("/webhooks/subscriptions", "Subscribe a URL to events (the secret is write-only: answered masked)", {
    body: { WebhookSubscriptionInput },
    response: { WebhookSubscriptionView },
    example,
    access,
    errors: ["ERR_PLAN_FEATURE"],
  }),
  hooks.get("/webhooks/subscriptions/:id", "One subscription", { response: { WebhookSubscriptionView }, access, errors: ["ERR_NOT_FOUND"] }),
  hooks.put("/webhooks/subscriptions/:id", "Edit a subscription (an empty or masked secret keeps the stored one)", {
    body: { WebhookSubscriptionInput },
    response: { WebhookSubscriptionView },
    example,
    access,
    errors: ["ERR_NOT_FOUND"],
  }),
  hooks.delete("/webhooks/subscriptions/:id", "Delete a subscription and its pending deliveries", {
    response: { MessageReply },
    access,
    errors: ["ERR_NOT_FOUND"],
  }),
  hooks.get("/webhooks/subscriptions/:id/deliveries", "The delivery log: pending and the last finished deliveries, newest first", {
    response: { DeliveryLog },
    access,
    errors: ["ERR_NOT_FOUND"],
  }),
  hooks.post("/webhooks/subscriptions/:id/deliveries/:deliveryId/resend", "Send a finished delivery again (a new delivery id, the same eventId)", {
    access,
    errors: ["ERR_NOT_FOUND", "ERR_CONFLICT"],
  }),
];
