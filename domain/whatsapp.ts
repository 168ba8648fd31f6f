/** Connections (WhatsApp numbers) as stored (spec 001 §3 "Connection", §2.2). */
import { z } from "zod";
import type { SessionStatus } from "./channel.ts";
import { AppError } from "./errors.ts";
import { Flag, MAX, MSG, OptionalId } from "./text.ts";

export const Provider = z.enum(["simulator", "baileys", "evolution", "cloudapi", "beta"]);
export type Provider = z.infer<typeof Provider>;

/**
 * The providers a connection may be given: those this server has an adapter for
 * (server/channels/registry.ts). `beta` stays readable in stored records but cannot be
 * chosen, since a session of it could never start.
 */
export const SELECTABLE_PROVIDERS = ["simulator", "baileys", "evolution", "cloudapi"] as const satisfies readonly Provider[];

export const SESSION_STATUSES = [
  "DISCONNECTED",
  "OPENING",
  "qrcode",
  "PAIRING",
  "CONNECTED",
  "TIMEOUT",
] as const satisfies readonly SessionStatus[];

export const Whatsapp = z.object({
  id: z.number(),
  companyId: z.number(),
  name: z.string(),
  number: z.string(),
  status: z.enum(SESSION_STATUSES),
  statusEvo: z.enum(SESSION_STATUSES),
  qrcode: z.string(),
  qrcodeEvo: z.string(),
  retries: z.number(),
  isDefault: z.boolean(),
  greetingMessage: z.string(),
  complationMessage: z.string(),
  outOfHoursMessage: z.string(),
  ratingMessage: z.string(),
  closeMessage: z.string(),
  token: z.string(),
  webhook: z.string(),
  ignoreNumbers: z.string(),
  queueIds: z.array(z.number()),
  selectedMoveQueueId: z.number().nullable(),
  selectedInterval: z.number(),
  inatividade: z.number(),
  provider: Provider,
  channel: z.string(),
  keywords: z.array(z.object({ keyword: z.string(), code: z.string() })),
  // The official WhatsApp Cloud API (provider `cloudapi`, issue #22): the Graph ids of the
  // number and of its business account, and the credentials. Records stored before these
  // fields existed read them as "".
  cloudPhoneNumberId: z.string().default(""),
  cloudWabaId: z.string().default(""),
  /** Secret: a system user's access token for the Graph API; never leaves the server. */
  cloudAccessToken: z.string().default(""),
  /** Secret: the Meta app's secret, key of the webhook's X-Hub-Signature-256; never leaves the server. */
  cloudAppSecret: z.string().default(""),
  /** What Meta's webhook set-up sends back as hub.verify_token; shown to admins only. */
  cloudVerifyToken: z.string().default(""),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type Whatsapp = z.infer<typeof Whatsapp>;

/** Auto-move interval options in minutes (spec 001 §9); 0 = disabled. */
export const MOVE_INTERVALS: readonly number[] = [
  0,
  2,
  3,
  4,
  5,
  ...Array.from({ length: 10 }, (_, i) => 10 + i * 5),
  60,
];

/** Auto-close (inactivity) options in minutes (spec 001 §9); 0 = disabled. */
export const INACTIVITY_INTERVALS: readonly number[] = [
  0,
  ...Array.from({ length: 120 }, (_, i) => 5 + i * 5),
];

const minutesIn = (options: readonly number[], name: string) =>
  z.preprocess(
    (v) => (v === "" || v === null || v === undefined ? 0 : v),
    z.coerce.number().int().refine((n) => options.includes(n), `Invalid ${name}`),
  );

/** A text field where `null` means empty, at most `max` characters. */
const text = (max: number) => z.preprocess((v) => (v === null || v === undefined ? "" : v), z.string().max(max, MSG.tooLong));

/**
 * POST /whatsapp and PUT /whatsapp/{id} body (spec 001 §2.2, §7). Session fields and
 * `queues` the client may send along are dropped; a missing `provider` means simulator in
 * this build (no real network), an empty `token` is replaced by a generated one.
 */
export const WhatsappInput = z.object({
  name: z.string({ error: "Required" }).trim().min(2, "Too Short!").max(50, "Too Long!"),
  isDefault: z.preprocess((v) => v === true || v === "true" || v === 1, z.boolean()).default(false),
  greetingMessage: text(MAX.message).default(""),
  complationMessage: text(MAX.message).default(""),
  outOfHoursMessage: text(MAX.message).default(""),
  ratingMessage: text(MAX.message).default(""),
  closeMessage: text(MAX.message).default(""),
  token: text(MAX.secret).default(""),
  webhook: text(MAX.url).pipe(z.string().trim().refine((v) => v === "" || URL.canParse(v), "Invalid URL"))
    .default(""),
  ignoreNumbers: text(MAX.longText).default(""),
  queueIds: z.array(z.coerce.number().int().positive()).max(MAX.list, MSG.tooLong).default([]),
  selectedMoveQueueId: z.preprocess(
    (v) => (v === "" || v === 0 || v === undefined ? null : v),
    z.coerce.number().int().positive().nullable(),
  ).default(null),
  selectedInterval: minutesIn(MOVE_INTERVALS, "interval").default(0),
  inatividade: minutesIn(INACTIVITY_INTERVALS, "inactivity interval").default(0),
  provider: z.enum(SELECTABLE_PROVIDERS, { error: "Invalid provider" }).optional(),
  // Cloud API fields; a blank secret keeps the stored one (GET never returns them).
  cloudPhoneNumberId: text(MAX.shortText).pipe(z.string().trim().regex(/^\d*$/, "Digits only")).default(""),
  cloudWabaId: text(MAX.shortText).pipe(z.string().trim().regex(/^\d*$/, "Digits only")).default(""),
  cloudAccessToken: text(MAX.secret).pipe(z.string().trim()).default(""),
  cloudAppSecret: text(MAX.secret).pipe(z.string().trim()).default(""),
  cloudVerifyToken: text(MAX.secret).pipe(z.string().trim()).default(""),
});
export type WhatsappInput = z.infer<typeof WhatsappInput>;

/** The message of a keyword row with an empty keyword or code (spec 001 §5). */
export const KEYWORD_BOTH_FIELDS = "Please fill in both fields";

const keywordText = z.string({ error: KEYWORD_BOTH_FIELDS }).trim().min(1, KEYWORD_BOTH_FIELDS).max(100, "Too Long!");

/**
 * PUT /whatsapp/{id}/keywords body: the connection's whole keyword → code table (spec 001
 * §2.4, §3 `keywords`), each row both fields filled, a keyword at most once (case ignored),
 * up to 500 rows.
 */
export const KeywordsInput = z.object({
  keywords: z.array(z.object({ keyword: keywordText, code: keywordText })).max(500)
    .refine(
      (rows) => new Set(rows.map((r) => r.keyword.toLowerCase())).size === rows.length,
      "Each keyword once",
    ),
});
export type KeywordsInput = z.infer<typeof KeywordsInput>;

/**
 * A new connection record: a disconnected, non-default simulator with empty texts, no
 * queues and no token, created at `now`; `fields` override any of these defaults.
 */
export function newWhatsapp(
  id: number,
  companyId: number,
  now: number,
  fields: Partial<Whatsapp> = {},
): Whatsapp {
  return {
    id,
    companyId,
    name: "",
    number: "",
    status: "DISCONNECTED",
    statusEvo: "DISCONNECTED",
    qrcode: "",
    qrcodeEvo: "",
    retries: 0,
    isDefault: false,
    greetingMessage: "",
    complationMessage: "",
    outOfHoursMessage: "",
    ratingMessage: "",
    closeMessage: "",
    token: "",
    webhook: "",
    ignoreNumbers: "",
    queueIds: [],
    selectedMoveQueueId: null,
    selectedInterval: 0,
    inatividade: 0,
    provider: "simulator",
    channel: "whatsapp",
    keywords: [],
    cloudPhoneNumberId: "",
    cloudWabaId: "",
    cloudAccessToken: "",
    cloudAppSecret: "",
    cloudVerifyToken: "",
    createdAt: now,
    updatedAt: now,
    ...fields,
  };
}

/** The client-facing view of a connection: the record plus its queues' names and colours. */
export interface WhatsappView extends Whatsapp {
  queues: Array<{ id: number; name: string; color: string }>;
}

/** Digits of the numbers in a connection's `ignoreNumbers` (comma, space or newline separated). */
export function ignoredNumbers(list: string): Set<string> {
  return new Set(
    list.split(/[\s,;]+/).map((n) => n.replace(/\D/g, "")).filter((n) => n.length > 0),
  );
}

/** A fresh connection token: 32 hex characters of randomness. */
export function newConnectionToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Throws `ERR_WAPP_GREETING_REQUIRED` when a connection with more than one queue has no greeting. */
export function checkGreeting(input: Pick<Whatsapp, "queueIds" | "greetingMessage">): void {
  if (input.queueIds.length > 1 && input.greetingMessage.trim() === "") {
    throw new AppError("ERR_WAPP_GREETING_REQUIRED", {
      status: 400,
      message: "A greeting message is required when the connection has more than one queue",
      fields: { greetingMessage: "Required" },
    });
  }
}

/**
 * The one-default rule for a save (spec 001 §3, 000 §8): the first connection of a company
 * becomes the default; making one the default unsets the others; a save may not leave the
 * company without a default (`ERR_NO_OTHER_WHATSAPP`). Returns the record to store (with
 * `isDefault` settled) and the ids of the others whose flag must be cleared.
 */
export function settleDefault(
  others: readonly Whatsapp[],
  next: Whatsapp,
  old?: Whatsapp,
): { next: Whatsapp; unset: number[] } {
  const rest = others.filter((w) => w.id !== next.id);
  if (rest.length === 0) return { next: { ...next, isDefault: true }, unset: [] };
  if (next.isDefault) {
    return { next, unset: rest.filter((w) => w.isDefault).map((w) => w.id) };
  }
  if (old?.isDefault || !rest.some((w) => w.isDefault)) {
    throw new AppError("ERR_NO_OTHER_WHATSAPP", {
      status: 400,
      message: `Connection ${next.id} is the only default connection: make another one the default first`,
    });
  }
  return { next, unset: [] };
}

/** After deleting connection `removedId`: the connection that inherits the default flag, if any. */
export function heirOfDefault(others: readonly Whatsapp[], removed: Whatsapp): Whatsapp | undefined {
  if (!removed.isDefault) return undefined;
  return others.filter((w) => w.id !== removed.id).sort((a, b) => a.id - b.id)[0];
}

/** A connection (or its session view) without its QR codes, for users who may not pair it. */
export function withoutQr<T extends { qrcode: string; qrcodeEvo: string }>(view: T): T {
  return { ...view, qrcode: "", qrcodeEvo: "" };
}

/** The Cloud API fields nobody reads back: the Graph access token and the app secret. */
const CLOUD_SECRETS = ["cloudAccessToken", "cloudAppSecret"] as const;

/**
 * A connection (or its view) as it may leave the server: the Cloud API access token and app
 * secret blanked for everyone (they are write-only: a blank on save keeps them), and the
 * verify token too unless `withVerifyToken` (admins, who copy it into Meta's set-up).
 */
export function withoutCloudSecrets<T extends Partial<Pick<Whatsapp, typeof CLOUD_SECRETS[number] | "cloudVerifyToken">>>(
  view: T,
  withVerifyToken = false,
): T {
  const out = { ...view };
  for (const key of CLOUD_SECRETS) if (key in out) out[key] = "" as T[typeof key];
  if (!withVerifyToken && "cloudVerifyToken" in out) out.cloudVerifyToken = "" as T["cloudVerifyToken"];
  return out;
}

/**
 * Applies the Cloud API part of a save onto `base`: ids as given, secrets kept when left
 * blank, a verify token generated when a Cloud API connection has none; then checks that a
 * `cloudapi` connection has everything it needs (`ERR_VALIDATION` with the missing fields).
 */
export function settleCloudApi(input: Pick<WhatsappInput, "cloudPhoneNumberId" | "cloudWabaId" | "cloudAccessToken" | "cloudAppSecret" | "cloudVerifyToken">, base: Whatsapp): Whatsapp {
  const next: Whatsapp = {
    ...base,
    cloudPhoneNumberId: input.cloudPhoneNumberId,
    cloudWabaId: input.cloudWabaId,
    cloudAccessToken: input.cloudAccessToken || base.cloudAccessToken,
    cloudAppSecret: input.cloudAppSecret || base.cloudAppSecret,
    cloudVerifyToken: input.cloudVerifyToken || base.cloudVerifyToken,
  };
  if (next.provider !== "cloudapi") return next;
  if (!next.cloudVerifyToken) next.cloudVerifyToken = newConnectionToken();
  const fields: Record<string, string> = {};
  for (const key of ["cloudPhoneNumberId", "cloudWabaId", "cloudAccessToken", "cloudAppSecret"] as const) {
    if (!next[key]) fields[key] = "Required";
  }
  if (Object.keys(fields).length > 0) {
    throw new AppError("ERR_VALIDATION", { status: 400, message: "A Cloud API connection needs its phone number id, WABA id, access token and app secret", fields });
  }
  return next;
}

/**
 * POST /messages/{ticketId}/template body: an approved Cloud API template by name and
 * language code, with its positional body parameters ({{1}}, {{2}}… in order).
 */
export const TemplateSendInput = z.object({
  name: z.string({ error: "Required" }).trim().min(1, "Required").max(512, "Too Long!"),
  language: z.string({ error: "Required" }).trim().min(2, "Required").max(15, "Too Long!"),
  params: z.array(z.string().trim().min(1, "Required").max(1024, "Too Long!")).max(20).default([]),
});
export type TemplateSendInput = z.infer<typeof TemplateSendInput>;

/** An approved Cloud API template as GET /whatsapp/{id}/templates lists it for the composer. */
export interface TemplateInfo {
  name: string;
  language: string;
  category: string;
  status: string;
  /** The BODY component's text, with its {{1}}, {{2}}… placeholders. */
  body: string;
  /** How many positional parameters the body takes. */
  params: number;
}

/**
 * The text a template shows the customer: its body with the parameters in place (an empty or
 * missing parameter leaves its placeholder, so the composer's preview shows what is missing).
 */
export function renderTemplate(body: string, params: readonly string[]): string {
  return body.replace(/\{\{\s*(\d+)\s*\}\}/g, (all, n) => params[Number(n) - 1] || all);
}

/** GET /whatsapp and DELETE /whatsapp/{id} query: a super user may name another company. */
export const WhatsappListQuery = z.object({ companyId: OptionalId.optional(), session: Flag.optional() });

/** DELETE /whatsappsession/{id} body: which library's session to log out. */
export const SessionLogoutBody = z.object({ lib: z.enum(["baileys", "evolution"]).default("baileys") });

/**
 * The Cloud API's signature header as read: Meta sends `sha256=` and 64 hex digits; a longer
 * value is refused (401) without being compared.
 */
export const HubSignature = z.string().max(100);
