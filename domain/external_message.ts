/**
 * The external messages API (spec 001 §2.17, §5, §7 `POST /api/messages/send`): what a
 * request carries, how its number is read, and the per-token rate limit. Pure: the server
 * (server/api/external_messages.ts) applies it.
 *
 * Readings chosen where the spec is silent:
 * - §5 says every send field is required on the API page (token, number, openTicket, body;
 *   queueId when openTicket is 1): the API applies the same rules, so a request the page
 *   would refuse is refused here with the same field texts. A media request needs no body
 *   (each file carries its own caption).
 * - Numbers are read as every typed number is (phone_number.ts `normalizePhone`: the
 *   company's country code when none is written, the Brazilian ninth digit). WhatsApp's own
 *   answer (the checked JID) has the last word: accounts of some areas still live under the
 *   eight-digit form.
 */
import { z } from "zod";
import { MAX, MSG, OptionalId } from "./text.ts";

/** The success text of the API page's test forms (spec 001 §8). */
export const SENT_TEXT = "Mensagem enviada com sucesso";

/** The refusal of a plan without useExternalApi (spec 001 §8). */
export const UPGRADE_TEXT =
  "Você não possui acesso a este recurso! Faça um upgrade em sua assinatura ou contate o suporte!";

/** Longest text body accepted (WhatsApp's own limit for a text message). */
export const MAX_BODY = 4096;

/** Most files in one media request. */
export const MAX_MEDIAS = 10;

/** openTicket as 0 or 1 (JSON numbers, booleans or form strings). */
const OpenTicket = z.preprocess(
  (v) => (v === "1" || v === true ? 1 : v === "0" || v === false ? 0 : v),
  z.union([z.literal(0), z.literal(1)], { error: MSG.required }),
);

/** A number as JSON (string or number) or a form field; "" when absent, for `min` to judge. */
const RawNumber = z.preprocess(
  (v) => (typeof v === "number" ? String(v) : v ?? ""),
  z.string({ error: MSG.required }).max(MAX.phone, MSG.tooLong).trim().superRefine((v, ctx) => {
    const n = digitsOf(v).length;
    const message = v === "" ? MSG.required : n < 8 ? MSG.tooShort : n > 20 ? MSG.tooLong : "";
    if (message) ctx.addIssue({ code: "custom", message });
  }),
);

const common = {
  number: RawNumber,
  openTicket: OpenTicket,
  queueId: OptionalId.optional(),
};

/** queueId is required when openTicket is 1 (spec 001 §5). */
function queueWhenOpening(v: { openTicket: 0 | 1; queueId?: number | null }, ctx: z.RefinementCtx): void {
  if (v.openTicket === 1 && !v.queueId) {
    ctx.addIssue({ code: "custom", path: ["queueId"], message: MSG.required });
  }
}

/** The JSON body of `POST /api/messages/send` (a text message). */
export const ExternalSendInput = z.object({
  ...common,
  body: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(MAX_BODY, MSG.tooLong),
}).superRefine(queueWhenOpening);
export type ExternalSendInput = z.infer<typeof ExternalSendInput>;

/** The fields of a multipart `POST /api/messages/send` besides its files. */
export const ExternalMediaInput = z.object(common).superRefine(queueWhenOpening);
export type ExternalMediaInput = z.infer<typeof ExternalMediaInput>;

/** The token field of the API page's forms (sent as the bearer, not in the body). */
const Token = z.string({ error: MSG.required }).trim().min(1, MSG.required);

/** The API page's text form: the API's fields plus the connection token. */
export const ExternalSendForm = z.object({
  ...common,
  token: Token,
  body: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(MAX_BODY, MSG.tooLong),
}).superRefine(queueWhenOpening);
export type ExternalSendForm = z.infer<typeof ExternalSendForm>;

/** The API page's media form: token and number (files are checked by the form itself). */
export const ExternalMediaForm = z.object({ number: RawNumber, token: Token });
export type ExternalMediaForm = z.infer<typeof ExternalMediaForm>;

/** Digits of a number as written. */
export function digitsOf(raw: string): string {
  return raw.replace(/\D/g, "");
}

/** A per-token rate: `perSecond` refill, bursts of up to `burst`. */
export interface RateLimit {
  perSecond: number;
  burst: number;
}

/** Default rate of one connection token; env BALCAO_API_RATE / BALCAO_API_BURST change it. */
export const DEFAULT_RATE: RateLimit = { perSecond: 50, burst: 100 };

/** A token bucket: tokens left and when it was last refilled. */
export interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Takes one request from `bucket` at `now`: the new bucket and, when refused, how many whole
 * seconds until a request would pass (the Retry-After value, at least 1).
 */
export function takeToken(
  bucket: Bucket | undefined,
  now: number,
  limit: RateLimit,
): { bucket: Bucket; allowed: boolean; retryAfter: number } {
  const start = bucket ?? { tokens: limit.burst, at: now };
  const elapsed = Math.max(0, now - start.at) / 1000;
  const tokens = Math.min(limit.burst, start.tokens + elapsed * limit.perSecond);
  if (tokens >= 1) return { bucket: { tokens: tokens - 1, at: now }, allowed: true, retryAfter: 0 };
  const retryAfter = Math.max(1, Math.ceil((1 - tokens) / limit.perSecond));
  return { bucket: { tokens, at: now }, allowed: false, retryAfter };
}

/** An `Idempotency-Key` header value: 1 to 255 visible ASCII characters. */
export const IdempotencyKey = z.string().max(255, "Idempotency-Key must be 1 to 255 visible ASCII characters").regex(/^[\x21-\x7e]{1,255}$/, "Idempotency-Key must be 1 to 255 visible ASCII characters");

/** What a media request carries per file, for the idempotency fingerprint. */
export interface MediaSummary {
  name: string;
  size: number;
  type: string;
  caption: string;
}

/**
 * A stable text naming a request's content: a key reused with a different request is refused
 * instead of replaying an answer to something else. Multipart boundaries differ between two
 * sends of one request, so files count by name, size, type and caption.
 */
export function requestFingerprint(
  input: { number: string; openTicket: 0 | 1; queueId?: number | null; body?: string },
  medias: readonly MediaSummary[] = [],
): string {
  return JSON.stringify([
    digitsOf(input.number),
    input.openTicket,
    input.queueId ?? null,
    input.body ?? null,
    medias.map((m) => [m.name, m.size, m.type, m.caption]),
  ]);
}
