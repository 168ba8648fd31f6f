/**
 * Company settings: key/value pairs with a default for every key a new company gets
 * (spec 000 §3, 001 §3). Global keys are readable by everyone but writable only by super.
 *
 * Seven keys of 001 §3 come with a name and little else (the specs say only that viewnoti
 * shows the bell and viewppw is kept locally, 000 §2, §6). Each has the effect its name and
 * the product the spec was read from give it, or no control at all:
 * - viewnoti ("Operador visualiza notificação"): a plain user sees the notification bell
 *   (islands/shell/TopBar.tsx; managers always do).
 * - viewppw ("Operador visualiza prévias"): a plain user may preview a waiting ticket, read
 *   only, its unread count untouched (visibility.ts canPreviewPending, GET /messages-ghost).
 * - allowupserts ("Permitir importação de contatos automática", global): the people a
 *   connection's phone reports become contacts by themselves (server/channels/contact_upserts.ts).
 * - usoExterno ("Uso externo"), hidden: the plan's useExternalApi is already the switch of
 *   external use, set per company by the platform owner; a second one off by default would
 *   silently stop every company's API, and nothing says what else it could open.
 * - externaldownload ("Permitir download externo", global), hidden: every medium already has
 *   a download link for the company's users (signed URLs, media_url.ts); the one reading that
 *   would add something, the server fetching media from URLs the external API is given, makes
 *   it fetch arbitrary addresses when the API already takes the files themselves (multipart).
 * - camposfixos ("Campos extras fixos no contato", global), hidden: no text names the fixed
 *   fields, and a contact's extraInfo already holds whatever fields a company keeps (the
 *   kanban's 'Valor do Lead' among them).
 * - emfila ("Mensagens em fila (Redis para alto volume)", global), hidden: every outbound
 *   message already goes through a durable outbox with retries and per-connection pacing
 *   (server/channels/live_session.ts); there is no second path to switch to. The customer's
 *   place in the queue is sendQueuePosition's.
 * Hidden keys keep their defaults and stay readable and writable through /settings (the
 * spec's contract), so a client that sends them is not refused.
 */
import { z } from "zod";
import { BRANDING_KEYS, brandingValueError } from "./branding.ts";
import { validTimeZone } from "./closed_period.ts";
import { MAX, MSG } from "./text.ts";

export const Setting = z.object({
  id: z.number(),
  companyId: z.number(),
  key: z.string(),
  value: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type Setting = z.infer<typeof Setting>;

/** Defaults a new company gets. Values are strings as the spec's client sends them. */
export const SETTING_DEFAULTS: Readonly<Record<string, string>> = {
  userRating: "disabled",
  userRatingOut: "disabled",
  ratingurl: "",
  scheduleType: "disabled",
  // "Ignorar mensagens de grupos": on drops group messages before they are stored. Off by
  // default, so the groups the product shows (viewgroups, group tickets) reach it.
  CheckMsgIsGroup: "disabled",
  call: "disabled",
  chatBotType: "text",
  // "Mensagem fora do expediente": on, a customer writing out of hours gets the out-of-hours
  // text (domain/conversation.ts); off, never (#41). On by default, as that text was sent
  // before the switch governed it, so a company that never touched it keeps its behaviour.
  outsidemessage: "enabled",
  outsidequeue: "disabled",
  sendGreetingAccepted: "disabled",
  sendTransferAlert: "disabled",
  sendFarewellWaitingTicket: "disabled",
  sendSignMessage: "enabled",
  sendGreetingMessageOneQueues: "disabled",
  sendQueuePosition: "disabled",
  // The company's wall clock for opening hours (an IANA zone; the spec's product is Brazilian).
  timezone: "America/Sao_Paulo",
  viewclosed: "disabled",
  viewgroups: "disabled",
  allusersviewgroups: "disabled",
  viewnoti: "disabled",
  viewppw: "disabled",
  usoExterno: "disabled",
  campaignsEnabled: "true",
  viewterms: "disabled",
  viewprivacy: "disabled",
  viewregister: "disabled",
  allowregister: "disabled",
  externaldownload: "disabled",
  camposfixos: "disabled",
  allowupserts: "disabled",
  emfila: "disabled",
  trial: "3",
  // The Help screen's WhatsApp support number (001 §2.9 does not show where it comes from):
  // a global key, written by super and read by everyone; "" hides the support button.
  wasupport: "",
  tokenTypebot: "",
  urlTypebot: "",
  urlBotTypebot: "",
  urlN8N: "",
  apiKeyN8N: "",
  sendgridapi: "",
  emailsender: "",
  // E-mail by SMTP (password recovery): used when set, else the SendGrid key. Global keys.
  smtpHost: "",
  smtpPort: "587",
  smtpUser: "",
  smtpPassword: "",
  smtpSecure: "disabled",
  eficlientid: "",
  eficlientsecret: "",
  efichavepix: "",
  mpaccesstoken: "",
  stripeprivatekey: "",
  asaastoken: "",
  // What the payment webhooks are verified with (issue #21, server/billing/providers): Stripe's
  // endpoint signing secret, Mercado Pago's webhook secret, the token Asaas sends in
  // asaas-access-token, and the hmac query value Efí's webhook URL is registered with.
  stripewebhooksecret: "",
  mpwebhooksecret: "",
  asaaswebhooktoken: "",
  efiwebhooksecret: "",
  mainColor: "#2563eb",
  scrollbarColor: "#94a3b8",
  toolbarBackground: "", // "": the top bar follows mainColor (domain/branding.ts)
  backgroundPages: "",
};

/** The platform's credentials (e-mail and payment providers): global keys read by super users only. */
const CREDENTIAL_KEYS = [
  "sendgridapi",
  "smtpPassword",
  "eficlientid",
  "eficlientsecret",
  "efichavepix",
  "mpaccesstoken",
  "stripeprivatekey",
  "asaastoken",
  "stripewebhooksecret",
  "mpwebhooksecret",
  "asaaswebhooktoken",
  "efiwebhooksecret",
] as const;

/** Keys that only a super user may change (the global block of spec 001 §2.4). */
export const GLOBAL_SETTING_KEYS: ReadonlySet<string> = new Set([
  "viewterms",
  "viewprivacy",
  "viewregister",
  "allowregister",
  "externaldownload",
  "camposfixos",
  "allowupserts",
  "emfila",
  "trial",
  "emailsender",
  "smtpHost",
  "smtpPort",
  "smtpUser",
  "smtpSecure",
  "wasupport",
  ...CREDENTIAL_KEYS,
  // The platform's palette and background, set by super (why: domain/branding.ts).
  ...BRANDING_KEYS,
]);

/**
 * Global keys whose values are credentials of the platform (e-mail and payment providers).
 * Only super users read them; everyone else never sees them, not even as empty values.
 */
export const SECRET_SETTING_KEYS: ReadonlySet<string> = new Set(CREDENTIAL_KEYS);

/**
 * Whether a company has campaigns on: its `campaignsEnabled` setting (001 §3, the platform
 * owner's switch), on when absent (a company created before the key existed).
 */
export function campaignsOn(value: string | undefined): boolean {
  return value === undefined || value === "" || settingOn(value);
}

/** Whether a setting value means "on" ("enabled", "true"…). */
export function settingOn(value: string | undefined): boolean {
  return value === "enabled" || value === "true" || value === "1";
}

/** PUT /settings/{key} body. */
export const SettingUpdate = z.object({
  value: z.union([z.string().max(MAX.longText, MSG.tooLong), z.number(), z.boolean()]).transform(String),
});
export type SettingUpdate = z.infer<typeof SettingUpdate>;

/**
 * Company keys holding the company's own credentials for bot integrations: readable by its
 * admins (who set them), not by every agent.
 */
export const ADMIN_SETTING_KEYS: ReadonlySet<string> = new Set(["tokenTypebot", "apiKeyN8N"]);

/**
 * Secrets are write-only: the platform's credentials (SECRET_SETTING_KEYS) and the company's
 * integration keys (ADMIN_SETTING_KEYS). No API answer, session payload or live event carries
 * their value, not even to super users who write them: where a value would show, it reads
 * SECRET_MASK when one is stored and "" when none is, so a form can say "configured" and
 * offer to replace it, never to read it. The mask keeps every settings list a plain
 * key → string map (GET /settings, /auth/me, company views). The server itself reads the
 * stored values (companySettings / platformSettings), never the shown ones. A write of the
 * mask itself is refused: it would store the mask as the secret.
 */
export const SECRET_MASK = "••••••••";

/** Keys whose value is never shown (see SECRET_MASK). */
export const WRITE_ONLY_SETTING_KEYS: ReadonlySet<string> = new Set([...CREDENTIAL_KEYS, ...ADMIN_SETTING_KEYS]);

/** The value of `key` as a reader is shown it: a write-only key's mask, else the value. */
export function shownSettingValue(key: string, value: string): string {
  if (!WRITE_ONLY_SETTING_KEYS.has(key)) return value;
  return value === "" ? "" : SECRET_MASK;
}

/** Who reads settings, as far as hiding keys goes. */
export interface SettingReader {
  profile: string;
  super: boolean;
}

/** Whether `who` may read `key` at all (secrets: super only; admin keys: admins). */
export function settingReadable(who: SettingReader, key: string): boolean {
  if (SECRET_SETTING_KEYS.has(key)) return who.super;
  if (ADMIN_SETTING_KEYS.has(key)) return who.super || who.profile === "admin";
  return true;
}

/** Whether `key` is a setting the product knows (every known key has a default). */
export function isSettingKey(key: string): boolean {
  return Object.hasOwn(SETTING_DEFAULTS, key);
}

const CHOICES: Readonly<Record<string, readonly string[]>> = {
  scheduleType: ["disabled", "queue", "company"],
  chatBotType: ["text", "list"],
};

/** Why `value` is not acceptable for `key` (spec 001 §3, §9), or null when it is. */
export function settingValueError(key: string, value: string): string | null {
  const choices = CHOICES[key];
  if (choices && !choices.includes(value)) return `${key} must be one of ${choices.join(", ")}`;
  const branding = brandingValueError(key, value);
  if (branding) return branding;
  if (key === "trial" && !/^[1-7]$/.test(value)) return "trial must be 1 to 7 days";
  if (key === "timezone" && !validTimeZone(value)) return `timezone must be an IANA time zone, got ${value}`;
  if (key === "wasupport" && value !== "" && !/^\d{10,15}$/.test(value.replace(/[\s()+.-]/g, ""))) {
    return `wasupport must be a phone number of 10 to 15 digits, got ${value}`;
  }
  if (value === SECRET_MASK) return `${key}: send the new value, not the mask of the stored one`;
  if (value.length > 5000) return `${key} is too long`;
  return null;
}
