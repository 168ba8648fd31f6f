/**
 * Response shapes the document names that are not records of `domain/`: the error body every
 * endpoint may answer (server/http/errors.ts), the paged lists, and the small acknowledgements.
 */
import { z } from "zod";
import { WebhookEvent } from "../../domain/webhook.ts";
import { ErrorCode } from "../../domain/errors.ts";
import { User } from "../../domain/user.ts";

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
  user: z.record(z.string(), z.unknown()),
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
