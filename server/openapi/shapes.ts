/**
 * Response shapes the document names that are not records of `domain/`: the error body every
 * endpoint may answer (server/http/errors.ts), the paged lists, and the small acknowledgements.
 */
import { z } from "zod";
import { Delivery, WebhookEvent, WebhookSubscription } from "../../domain/webhook.ts";
import { ErrorCode } from "../../domain/errors.ts";
import { User } from "../../domain/user.ts";
import { Ticket } from "../../domain/ticket.ts";
import { Message } from "../../domain/message.ts";
import { Whatsapp, type WhatsappView as WhatsappViewType } from "../../domain/whatsapp.ts";
import type { MessageView as MessageViewType } from "../../domain/message.ts";
import type { WebhookSubscriptionView as SubscriptionViewType } from "../../domain/webhook.ts";
import type { TicketItem } from "../../actors/tickets/mod.ts";
import type { deliveryLog } from "../../actors/webhooks/mod.ts";

/** The error body of every failure: `{ error: CODE, message, fields }` (DESIGN §4). */
export const ErrorBody = z.object({
  error: z.enum(ErrorCode).describe("A code of the error catalogue (spec 000 §8) or of the server's own"),
  message: z.string().describe("What failed, in a sentence"),
  fields: z.record(z.string(), z.string()).optional().describe("Field name → message, on ERR_VALIDATION"),
}).meta({
  examples: [{ error: "ERR_VALIDATION", message: "name: Too Short!", fields: { name: "Too Short!" } }],
});

/** A page of `key` rows as the lists answer: `{ [key]: rows, count, hasMore }`. */
export function pageOf<K extends string>(key: K, row: z.ZodType) {
  return z.object({ [key]: z.array(row), count: z.number().int(), hasMore: z.boolean() } as Record<K, z.ZodType>);
}

/** `{ message }`: what deletions and other acknowledgements answer. */
export const MessageReply = z.object({ message: z.string() });

/** A user as the API shows one: the record without its password hash. */
export const UserView = User.omit({ passwordHash: true });

/** `POST /auth/login` and `/auth/refresh_token`: the access token and the signed-in user. */
export const SessionReply = z.object({
  token: z.string().describe("Access token (JWT, HS256); send as `Authorization: Bearer …`"),
  user: z.looseObject({
    id: z.number().int(),
    name: z.string(),
    email: z.string(),
    profile: z.string().describe("admin or user"),
    companyId: z.number().int(),
  }).describe("The user (server/auth/session_user.ts sessionUser): these fields, its company with plan and settings, its queues"),
});

/** `{ id, name }` of a record a view names. */
const Ref = z.object({ id: z.number().int(), name: z.string() });
const ColoredRef = Ref.extend({ color: z.string() });
const iso = z.string().describe("ISO 8601");

/**
 * A ticket as the API shows one (actors/tickets/view.ts ticketItem): its record with dates as
 * ISO text, and the names of its contact, queue, user, connection and tags.
 */
export const TicketView = Ticket.omit({ v: true, latestSeq: true }).extend({
  createdAt: iso,
  updatedAt: iso,
  latestCreatedAt: iso.nullable(),
  closedAt: iso.nullable(),
  acceptedAt: iso.nullable(),
  contact: Ref.extend({ number: z.string(), profilePicUrl: z.string() }).nullable(),
  queue: ColoredRef.nullable(),
  user: Ref.nullable(),
  whatsapp: Ref.extend({ channel: z.string() }).nullable(),
  tags: z.array(ColoredRef),
});

/** `GET /tickets`: a page of the inbox. */
export const TicketPage = pageOf("tickets", TicketView).extend({
  partial: z.boolean().optional().describe("With `searchParam` only: true while the message-search index is still being built"),
});

/** A message as the API shows one (actors/messages/view.ts, domain MessageView): dates as ISO text, media as a signed URL. */
export const MessageView = Message.omit({ sendAttempts: true }).extend({
  mediaUrl: z.string().nullable().describe("Signed, expiring URL of the media file"),
  contact: Ref.nullable(),
  quotedMsg: z.object({ id: z.string(), body: z.string(), fromMe: z.boolean(), mediaType: Message.shape.mediaType }).nullable(),
  createdAt: iso,
  updatedAt: iso,
});

/** `GET /messages/{ticketId}`: a page of the ticket's messages, and the ticket. */
export const MessagePage = pageOf("messages", MessageView).extend({ ticket: TicketView });

/** `POST /messages/{ticketId}`: the stored messages (one per file), the last one also as `message`. */
export const MessagesSent = z.object({ message: MessageView, messages: z.array(MessageView) });

/** A connection as the API shows one (server/api/whatsapps.ts whatsappView). */
export const WhatsappView = Whatsapp.extend({
  token: z.string().describe("The connection's token for the external API; \"\" for who may not edit connections"),
  cloudAccessToken: z.string().describe("Always \"\": it never leaves the server"),
  cloudAppSecret: z.string().describe("Always \"\": it never leaves the server"),
  cloudVerifyToken: z.string().describe("\"\" for who may not edit connections"),
  queues: z.array(ColoredRef),
});

/** A webhook subscription as the API shows it (domain/webhook.ts subscriptionView): the secret masked. */
export const WebhookSubscriptionView = WebhookSubscription.omit({ companyId: true }).extend({
  secret: z.string().describe("A mask when set (write-only), \"\" when not"),
});

/** `GET /webhooks/subscriptions/{id}/deliveries` (actors/webhooks deliveryLog): the newest deliveries first, without their bodies. */
export const DeliveryLog = z.object({
  deliveries: z.array(Delivery.pick({
    id: true,
    event: true,
    status: true,
    createdAt: true,
    attempts: true,
    lastAttemptAt: true,
    statusCode: true,
    durationMs: true,
    error: true,
    resendOf: true,
  })),
  pending: z.number().int(),
  failures: z.number().int().describe("Failed tries in a row of the oldest pending delivery"),
  retryAt: z.number().nullable().describe("When the next try is due (ms since the epoch), while failing"),
});

/** `{ key, value }` of one setting. */
export const SettingEntry = z.object({ key: z.string(), value: z.unknown() });

/** `POST /api/messages/send`'s answer: the normalised number, the contact, the ticket, the stored messages. */
export const ExternalSendReply = z.object({
  message: z.string().describe("'Mensagem enviada com sucesso'"),
  number: z.string(),
  contact: z.object({ id: z.number(), name: z.string(), number: z.string() }),
  ticket: z.object({ id: z.number(), uuid: z.string(), status: z.string(), queueId: z.number().nullable() }),
  messages: z.array(z.object({
    id: z.string(),
    body: z.string(),
    mediaType: z.string(),
    ack: z.number(),
    fromMe: z.boolean(),
    createdAt: z.union([z.string(), z.number()]),
  })),
});

/**
 * What the product POSTs to a connection's `webhook` URL for each inbound message
 * (server/channels/webhook.ts), signed in the `X-Balcao-Signature` header.
 */
export const ConnectionWebhookEvent = z.object({
  event: z.literal("message"),
  companyId: z.number(),
  whatsappId: z.number(),
  ticketId: z.number().nullable(),
  messageId: z.string().nullable(),
  message: z.object({
    providerId: z.string(),
    from: z.string().describe("Customer's digits (or the group's)"),
    name: z.string(),
    body: z.string(),
    mediaType: z.string(),
    media: z.object({ mimetype: z.string(), filename: z.string() }).optional(),
    fromMe: z.boolean(),
    isGroup: z.boolean(),
    timestamp: z.number(),
  }).loose(),
  keyword: z.string().nullable().optional().describe("Only when the webhook is a CRM API: the keyword row the text matched"),
  code: z.string().nullable().optional().describe("Only when the webhook is a CRM API: that row's code"),
});

/** What a company's webhook subscription receives (domain/webhook.ts). */
export const SubscriptionWebhookEvent = z.object({
  eventId: z.string().describe("Stable across retries and resends: drop duplicates by it"),
  event: WebhookEvent,
  createdAt: z.string().describe("When the event happened (ISO 8601)"),
  companyId: z.number(),
  data: z.unknown().describe("The record the event is about: message, ticket, contact or connection status; null when truncated"),
  truncated: z.boolean().optional().describe("True when the record was over 56 KB and left out"),
});

/**
 * Type-checked proof that the views the handlers build have every field, of the type, that
 * the schemas above promise (`deno check` fails when a view changes and its schema does not).
 */
type Describes<S extends z.ZodType, View extends z.output<S>> = View;
export type ViewsMatchSchemas = [
  // isoDate's type allows null; a ticket's createdAt and updatedAt are always set.
  Describes<typeof TicketView, Omit<TicketItem, "createdAt" | "updatedAt"> & { createdAt: string; updatedAt: string }>,
  Describes<typeof MessageView, MessageViewType>,
  Describes<typeof WhatsappView, WhatsappViewType>,
  Describes<typeof WebhookSubscriptionView, SubscriptionViewType>,
  Describes<typeof DeliveryLog, Awaited<ReturnType<typeof deliveryLog>>>,
];
