/**
 * Outbound webhooks (issue #22): a company's subscriptions (URL, events, secret, active),
 * the delivery record the delivery actor keeps, and the pure rules around them: which
 * addresses are private, the retry schedule, and how a delivery is signed.
 *
 * Signing (documented for integrators, and in the OpenAPI document): each POST carries
 * - `X-Balcao-Event`: the event name (`message.created`…),
 * - `X-Balcao-Delivery`: the delivery's id (a UUID; a resend gets a new one, the body's
 *   `eventId` stays), to drop duplicates: delivery is at least once,
 * - `X-Balcao-Timestamp`: Unix seconds of this attempt,
 * - `X-Balcao-Signature: sha256=<hex>`: HMAC-SHA256 keyed by the subscription's secret of
 *   `timestamp + "." + body` (the raw body bytes as received). A receiver recomputes it,
 *   compares in constant time, and refuses a timestamp more than 5 minutes old (replays).
 * A connection's own `webhook` (spec 001 §2.2) keeps its original signature, HMAC of the body
 * alone keyed by the connection's token, so receivers written for it keep working; it gets
 * the three other headers too.
 */
import { z } from "zod";
import { SECRET_MASK } from "./settings.ts";
import { MAX } from "./text.ts";

/** The events a subscription may choose. */
export const WEBHOOK_EVENTS = [
  "message.created",
  "message.ack",
  "ticket.created",
  "ticket.updated",
  "contact.created",
  "session.status",
  "campaign.finished",
] as const;
export const WebhookEvent = z.enum(WEBHOOK_EVENTS);
export type WebhookEvent = z.infer<typeof WebhookEvent>;

/** Header names of a delivery (see the module doc). */
export const WEBHOOK_HEADERS = {
  event: "X-Balcao-Event",
  delivery: "X-Balcao-Delivery",
  timestamp: "X-Balcao-Timestamp",
  signature: "X-Balcao-Signature",
} as const;

/** A stored subscription; `secret` is only ever read by the sender (see `subscriptionView`). */
export const WebhookSubscription = z.object({
  id: z.number(),
  companyId: z.number(),
  url: z.string(),
  events: z.array(WebhookEvent),
  secret: z.string(),
  active: z.boolean(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type WebhookSubscription = z.infer<typeof WebhookSubscription>;

/** Messages of the form (pt: the product's default language; the server answers with them too). */
export const WEBHOOK_MSG = {
  url: "Informe uma URL http:// ou https:// válida",
  privateUrl: "Endereços internos ou privados não são permitidos",
  events: "Escolha ao menos um evento",
  secret: "O segredo deve ter entre 16 e 200 caracteres",
} as const;

const url = z.string({ error: WEBHOOK_MSG.url }).trim().max(2000, WEBHOOK_MSG.url).refine((text) => {
  try {
    const parsed = new URL(text);
    return (parsed.protocol === "http:" || parsed.protocol === "https:") && parsed.hostname !== "" &&
      parsed.username === "" && parsed.password === "";
  } catch {
    return false;
  }
}, WEBHOOK_MSG.url);

/** A new secret, or (on edit) "" / the mask: keep the stored one. */
const secret = z.string().max(MAX.secret, WEBHOOK_MSG.secret).trim().refine(
  (s) => s === "" || s === SECRET_MASK || (s.length >= 16 && s.length <= 200),
  WEBHOOK_MSG.secret,
);

/**
 * POST and PUT /webhooks/subscriptions body. The secret is required on create (the handler
 * says so when it is missing) and optional on edit; the URL's host is checked against private
 * addresses by the server (the rule depends on its configuration, domain/network_address.ts).
 */
export const WebhookSubscriptionInput = z.object({
  url,
  events: z.array(WebhookEvent, { error: WEBHOOK_MSG.events }).min(1, WEBHOOK_MSG.events).max(WEBHOOK_EVENTS.length)
    .transform((list) => [...new Set(list)]),
  secret: secret.optional().default(""),
  active: z.boolean().optional().default(true),
});
export type WebhookSubscriptionInput = z.infer<typeof WebhookSubscriptionInput>;

/** What the API shows of a subscription: the secret masked, never in clear. */
export function subscriptionView(s: WebhookSubscription) {
  return {
    id: s.id,
    url: s.url,
    events: s.events,
    secret: s.secret === "" ? "" : SECRET_MASK,
    active: s.active,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
}
export type WebhookSubscriptionView = ReturnType<typeof subscriptionView>;

/** The secret to store after an edit: the new one, or the old when the form kept it. */
export function nextSecret(old: string, given: string): string {
  return given === "" || given === SECRET_MASK ? old : given;
}

/** Where a delivery goes: a subscription (`s{id}`) or a connection's webhook (`w{id}`). */
export type WebhookTarget = `s${number}` | `w${number}`;

/** A delivery's state. */
export type DeliveryStatus = "pending" | "delivered" | "failed";

/**
 * One delivery, stored at `["webhook_delivery", companyId, target, seq]`. `seq` orders the
 * target's deliveries; `lane` (a ticket, contact or connection) is what must stay in order.
 */
export const Delivery = z.object({
  v: z.literal(1),
  id: z.string(),
  seq: z.number(),
  companyId: z.number(),
  target: z.string(),
  event: z.string(),
  lane: z.string(),
  body: z.string(),
  createdAt: z.number(),
  status: z.enum(["pending", "delivered", "failed"]),
  attempts: z.number(),
  lastAttemptAt: z.number().nullable(),
  statusCode: z.number().nullable(),
  durationMs: z.number().nullable(),
  error: z.string().nullable(),
  /** The delivery this one resends, if any. */
  resendOf: z.string().nullable(),
});
export type Delivery = z.infer<typeof Delivery>;

/** What the delivery log shows of a delivery (the body is kept for the resend, not listed). */
export function deliveryView(d: Delivery) {
  return {
    id: d.id,
    event: d.event,
    status: d.status,
    createdAt: d.createdAt,
    attempts: d.attempts,
    lastAttemptAt: d.lastAttemptAt,
    statusCode: d.statusCode,
    durationMs: d.durationMs,
    error: d.error,
    resendOf: d.resendOf,
  };
}
export type DeliveryView = ReturnType<typeof deliveryView>;

/** The retry schedule of a target; the server's configuration may shorten it (tests). */
export interface RetryPolicy {
  /** First wait after a failure. */
  baseMs: number;
  /** Longest wait between two tries. */
  maxMs: number;
  /** How long a delivery is retried before it is marked failed. */
  windowMs: number;
  /** A try's HTTP timeout. */
  timeoutMs: number;
  /** While deliveries are pending, the actor's timer wakes it at least this often (a restart resumes within it). */
  watchdogMs: number;
  /** Deliveries sent at once to a healthy endpoint (still one at a time per lane). */
  concurrency: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  baseMs: 5_000,
  maxMs: 3_600_000,
  windowMs: 24 * 3_600_000,
  timeoutMs: 10_000,
  watchdogMs: 60_000,
  concurrency: 4,
};

/**
 * The wait after the `failures`-th failure in a row: base · 2^(failures−1), capped, with up
 * to ±20 % jitter from `random` (0..1) so many targets do not retry in step.
 */
export function backoffMs(failures: number, policy: Pick<RetryPolicy, "baseMs" | "maxMs">, random = 0.5): number {
  const exp = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, failures - 1));
  return Math.max(1, Math.round(exp * (0.8 + 0.4 * random)));
}

/** Whether an HTTP answer counts as received (2xx; a redirect is not followed, so not one). */
export function delivered(statusCode: number | null): boolean {
  return statusCode !== null && statusCode >= 200 && statusCode < 300;
}

/** Most pending deliveries a target holds; beyond it a new one is recorded failed at once. */
export const MAX_PENDING = 10_000;

/** Finished deliveries kept in a target's log. */
export const LOG_SIZE = 50;

/** Largest body stored (KV values are ≤ 64 KiB with the record around it). */
export const MAX_BODY_BYTES = 56_000;

/**
 * The JSON body of a subscription's delivery: `{ eventId, event, createdAt, companyId, data }`.
 * A body over MAX_BODY_BYTES (a very long message) is sent with `data: null` and
 * `truncated: true`; the receiver reads the record through the API.
 */
export function eventBody(
  eventId: string,
  event: WebhookEvent,
  companyId: number,
  at: number,
  data: Record<string, unknown>,
): string {
  const head = { eventId, event, createdAt: new Date(at).toISOString(), companyId };
  const body = JSON.stringify({ ...head, data });
  if (new TextEncoder().encode(body).length <= MAX_BODY_BYTES) return body;
  return JSON.stringify({ ...head, data: null, truncated: true });
}
