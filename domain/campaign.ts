/**
 * Campaigns (spec 002 §2.2–2.5, §3 Campaign and Campaign setting, §4 Campaign status, §5, §9):
 * a bulk message to a contact list, in up to five variants (one chosen at random per contact),
 * optionally preceded by a confirmation message that the contact must answer positively.
 * This module holds the schemas (server and the campaign dialog validate with the same ones),
 * the status machine, the editability rule, the message rendering and the report counts.
 *
 * Readings chosen where the spec is silent or gives two readings:
 * - Editable: INATIVA, CANCELADA, or PROGRAMADA more than 1 hour before `scheduledAt`
 *   (§4 gives two readings; the issue takes the stricter one).
 * - Only a running campaign (EM_ANDAMENTO) can be stopped; it becomes CANCELADA and, saved
 *   again (or restarted), resumes where it stopped: contacts already served are not sent again.
 * - `whatsappId` arrives as "1,2" (the form's whatsappIds joined by commas) or a number;
 *   `whatsappIds` as a list. Both are folded into `whatsappIds`, the rotation order.
 * - The "group list" (`groupListId`, §2.3, §3) names one of the company's WhatsApp groups (a
 *   group contact): the campaign also goes to the members of that group, as the group has
 *   them when the campaign starts (actors/campaigns/group_audience.ts). A campaign needs a
 *   contact list or a group list, or both ('A lista de contatos é obrigatória.' when neither):
 *   §5 asks for the list always, but a campaign to a group's members alone would then need an
 *   empty list made for nothing, so the group list stands in for it. Both: the list's contacts,
 *   then the members not already in it.
 */
import { z } from "zod";
import { foldText } from "./contact.ts";
import { parseSendAt } from "./schedule_recurrence.ts";
import { fillTemplate } from "./message_template.ts";
import { DEFAULT_TIME_ZONE } from "./schedule_hours.ts";
import { MSG, OptionalId } from "./text.ts";

export const CampaignStatus = z.enum(["INATIVA", "PROGRAMADA", "EM_ANDAMENTO", "CANCELADA", "FINALIZADA"]);
export type CampaignStatus = z.infer<typeof CampaignStatus>;

/**
 * The labels of §4 (pt; the UI translates by status), in one case style: the spec's
 * "Em Andamento" beside "Programada" read as two styles (#41), so it is "Em andamento".
 */
export const CAMPAIGN_STATUS_LABEL: Record<CampaignStatus, string> = {
  INATIVA: "Inativa",
  PROGRAMADA: "Programada",
  EM_ANDAMENTO: "Em andamento",
  CANCELADA: "Cancelada",
  FINALIZADA: "Finalizada",
};

/** The §5 texts of the campaign form. */
export const CAMPAIGN_TEXTS = {
  contactListRequired: "A lista de contatos é obrigatória.",
  scheduledAtRequired: "O agendamento é obrigatório.",
  connectionRequired: "É obrigatório selecionar pelo menos uma conexão.",
  messageRequired: "Informe ao menos uma mensagem.",
  confirmationRequired: "Informe a mensagem de confirmação.",
  notEditable: "Esta campanha não pode mais ser editada.",
  notRunning: "Somente uma campanha em andamento pode ser interrompida.",
  notResumable: "Somente uma campanha cancelada pode ser retomada.",
  duplicateVariable: "Atalho já utilizado.",
} as const;

/** Five message slots and five confirmation slots per campaign (§9). */
export const MESSAGE_SLOTS = [1, 2, 3, 4, 5] as const;
export type MessageSlot = typeof MESSAGE_SLOTS[number];

/** Editing closes this long before a scheduled start (§4, the stricter reading). */
export const EDIT_LOCK_BEFORE_START_MS = 60 * 60 * 1000;

/** A stored campaign (KV, one record per campaign). Dates are ms since the epoch. */
export const Campaign = z.object({
  id: z.number(),
  companyId: z.number(),
  name: z.string(),
  status: CampaignStatus,
  confirmation: z.boolean(),
  /** The contact list, or null when the campaign goes to a group list only. */
  contactListId: z.number().nullable(),
  /** The connections in rotation order; the first is the one shown as `whatsappId`. */
  whatsappIds: z.array(z.number()),
  tagId: z.number().nullable(),
  /** Tag put on each contact's ticket (the form's tagListId). */
  tagListId: z.number().nullable(),
  queueId: z.number().nullable(),
  /** The WhatsApp group (a group contact's id) whose members the campaign also goes to. */
  groupListId: z.number().nullable(),
  /** Open (or reuse) the contact's ticket and store the message there like an agent's. */
  openTicket: z.boolean(),
  /** The status a ticket opened by the campaign takes. */
  statusTicket: z.enum(["pending", "open", "closed"]),
  /** The user an `open` ticket is assigned to. */
  userId: z.number().nullable(),
  scheduledAt: z.number().nullable(),
  completedAt: z.number().nullable(),
  mediaPath: z.string().nullable(),
  mediaName: z.string().nullable(),
  message1: z.string(),
  message2: z.string(),
  message3: z.string(),
  message4: z.string(),
  message5: z.string(),
  confirmationMessage1: z.string(),
  confirmationMessage2: z.string(),
  confirmationMessage3: z.string(),
  confirmationMessage4: z.string(),
  confirmationMessage5: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type Campaign = z.infer<typeof Campaign>;

/** Empty strings are sent as null (§5); "" / null / undefined all mean "none". */
const blank = (v: unknown) => (v === "" || v === null || v === undefined ? undefined : v);

const Bool = z.preprocess(
  (v) => v === true || v === "true" || v === "1" || v === 1 || v === "enabled",
  z.boolean(),
);

const Text = z.preprocess((v) => (v === null || v === undefined ? "" : v), z.string().max(4096, MSG.tooLong))
  .transform((s) => s.trim());

/** "1,2" / 1 / [1, "2"] → [1, 2] (unique, positive). */
function idList(v: unknown): number[] {
  const raw = Array.isArray(v) ? v : typeof v === "string" ? v.split(",") : v === undefined || v === null ? [] : [v];
  const ids = raw.map((x) => Number(typeof x === "object" && x !== null ? (x as { id?: unknown }).id : x))
    .filter((n) => Number.isInteger(n) && n > 0);
  return [...new Set(ids)];
}

const ScheduledAt = z.unknown().transform((v, ctx) => {
  if (blank(v) === undefined) {
    ctx.addIssue({ code: "custom", message: CAMPAIGN_TEXTS.scheduledAtRequired });
    return z.NEVER;
  }
  const ms = parseSendAt(v);
  if (Number.isNaN(ms)) {
    ctx.addIssue({ code: "custom", message: CAMPAIGN_TEXTS.scheduledAtRequired });
    return z.NEVER;
  }
  return ms;
});

/**
 * POST /campaigns and PUT /campaigns/{id} body (the campaign dialog). `status` may only ask
 * for INATIVA (keep it off) or PROGRAMADA (the default: start at `scheduledAt`); the other
 * statuses are the server's. At least one message, and with confirmation on, the confirmation
 * message of each filled slot (the engine sends the pair of one slot).
 */
export const CampaignInput = z.object({
  name: z.string({ error: MSG.required }).trim().min(1, MSG.required).min(2, MSG.tooShort).max(50, MSG.tooLong),
  status: z.preprocess(blank, z.enum(["INATIVA", "PROGRAMADA"]).default("PROGRAMADA")),
  confirmation: Bool.default(false),
  contactListId: z.preprocess(
    blank,
    z.coerce.number({ error: CAMPAIGN_TEXTS.contactListRequired }).int().positive(CAMPAIGN_TEXTS.contactListRequired).optional(),
  ),
  whatsappId: z.unknown().optional(),
  whatsappIds: z.unknown().optional(),
  tagId: OptionalId.optional(),
  tagListId: OptionalId.optional(),
  queueId: OptionalId.optional(),
  groupListId: OptionalId.optional(),
  userId: OptionalId.optional(),
  openTicket: Bool.default(false),
  statusTicket: z.preprocess(blank, z.enum(["pending", "open", "closed"]).default("pending")),
  scheduledAt: ScheduledAt,
  message1: Text.default(""),
  message2: Text.default(""),
  message3: Text.default(""),
  message4: Text.default(""),
  message5: Text.default(""),
  confirmationMessage1: Text.default(""),
  confirmationMessage2: Text.default(""),
  confirmationMessage3: Text.default(""),
  confirmationMessage4: Text.default(""),
  confirmationMessage5: Text.default(""),
}).refine((input) => input.contactListId !== undefined || input.groupListId != null, {
  path: ["contactListId"],
  message: CAMPAIGN_TEXTS.contactListRequired,
  // Said with the other fields' messages, not only once they all parse.
  when: (payload) => typeof payload.value === "object" && payload.value !== null,
}).transform((input, ctx) => {
  const whatsappIds = idList(input.whatsappIds ?? input.whatsappId);
  if (whatsappIds.length === 0) {
    ctx.addIssue({ code: "custom", path: ["whatsappIds"], message: CAMPAIGN_TEXTS.connectionRequired });
  }
  const filled = MESSAGE_SLOTS.filter((n) => input[`message${n}`] !== "");
  if (filled.length === 0) {
    ctx.addIssue({ code: "custom", path: ["message1"], message: CAMPAIGN_TEXTS.messageRequired });
  }
  if (input.confirmation) {
    for (const n of filled) {
      if (input[`confirmationMessage${n}`] === "") {
        ctx.addIssue({ code: "custom", path: [`confirmationMessage${n}`], message: CAMPAIGN_TEXTS.confirmationRequired });
      }
    }
  }
  const { whatsappId: _w, ...rest } = input;
  return {
    ...rest,
    contactListId: input.contactListId ?? null,
    whatsappIds,
    tagId: input.tagId ?? null,
    tagListId: input.tagListId ?? null,
    queueId: input.queueId ?? null,
    groupListId: input.groupListId ?? null,
    userId: input.userId ?? null,
  };
});
export type CampaignInput = z.output<typeof CampaignInput>;

/** The form's own view of the input (before the transform), for useSchemaForm. */
export type CampaignFormValues = z.input<typeof CampaignInput>;

// ---------------------------------------------------------------------------------------------
// Status machine

/** Every transition the server makes (§4: the user only stops a running one; the rest is ours). */
const TRANSITIONS: Record<CampaignStatus, readonly CampaignStatus[]> = {
  INATIVA: ["PROGRAMADA", "INATIVA"],
  PROGRAMADA: ["INATIVA", "PROGRAMADA", "EM_ANDAMENTO"],
  EM_ANDAMENTO: ["CANCELADA", "FINALIZADA"],
  CANCELADA: ["INATIVA", "PROGRAMADA"],
  FINALIZADA: [],
};

/** Whether the status machine allows `from` → `to`. */
export function canTransition(from: CampaignStatus, to: CampaignStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** Whether the dialog may save (§4, stricter reading: a schedule closer than 1 h is locked). */
export function isEditable(c: Pick<Campaign, "status" | "scheduledAt">, now: number): boolean {
  if (c.status === "INATIVA" || c.status === "CANCELADA") return true;
  if (c.status === "PROGRAMADA") {
    return c.scheduledAt === null || c.scheduledAt - now > EDIT_LOCK_BEFORE_START_MS;
  }
  return false;
}

/** A running campaign is not deleted (its engine is mid-send): stop it first. */
export function isDeletable(c: Pick<Campaign, "status">): boolean {
  return c.status !== "EM_ANDAMENTO";
}

// ---------------------------------------------------------------------------------------------
// Settings (§3 Campaign setting, §9)

export const MESSAGE_INTERVAL_OPTIONS = [5, 10, 20, 30, 40, 50, 60, 120, 240] as const;
export const BATCH_SIZE_OPTIONS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] as const;
export const GREATER_INTERVAL_OPTIONS = [50, 100, 200, 300, 400, 500, 600] as const;

const oneOf = (options: readonly number[]) =>
  z.coerce.number().int().refine((n) => options.includes(n), { message: `Use ${options.join(", ")}` });

export const CampaignVariable = z.object({
  key: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(50, MSG.tooLong),
  value: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(1000, MSG.tooLong),
});
export type CampaignVariable = z.infer<typeof CampaignVariable>;

/** The company's campaign settings (§3, defaults of §9). Intervals are in seconds. */
export const CampaignSettings = z.object({
  messageInterval: oneOf(MESSAGE_INTERVAL_OPTIONS).default(240),
  longerIntervalAfter: oneOf(BATCH_SIZE_OPTIONS).default(4),
  greaterInterval: oneOf(GREATER_INTERVAL_OPTIONS).default(600),
  variables: z.array(CampaignVariable).max(100).default([]).refine(
    (list) => new Set(list.map((v) => foldText(v.key))).size === list.length,
    CAMPAIGN_TEXTS.duplicateVariable,
  ),
});
export type CampaignSettings = z.infer<typeof CampaignSettings>;

export const DEFAULT_CAMPAIGN_SETTINGS: CampaignSettings = {
  messageInterval: 240,
  longerIntervalAfter: 4,
  greaterInterval: 600,
  variables: [],
};

/** POST /campaign-settings body: `{ settings: {...} }` as the client sends it, or the object itself. */
export const CampaignSettingsInput = z.preprocess(
  (v) => (v && typeof v === "object" && "settings" in v ? (v as { settings: unknown }).settings : v),
  CampaignSettings,
);

/** Whether a new variable's shortcut is already taken (§5: not added twice). */
export function hasVariable(list: readonly CampaignVariable[], key: string): boolean {
  const k = foldText(key.trim());
  return list.some((v) => foldText(v.key) === k);
}

/** GET /campaign-settings: the list of key and value (JSON), as §7 says. */
export function settingsRows(s: CampaignSettings): Array<{ key: keyof CampaignSettings; value: string }> {
  return (Object.keys(DEFAULT_CAMPAIGN_SETTINGS) as Array<keyof CampaignSettings>)
    .map((key) => ({ key, value: JSON.stringify(s[key]) }));
}

/**
 * The delay before the `sent`-th message (0-based count already sent in this run): a random
 * wait up to `messageInterval`, and `greaterInterval` after every `longerIntervalAfter`
 * messages. `scale` shortens every interval (tests; 0 = no pacing beyond the shared limiter).
 */
export function campaignDelayMs(s: CampaignSettings, sent: number, random: number, scale = 1): number {
  if (sent === 0) return 0;
  const batchEnd = sent % s.longerIntervalAfter === 0;
  const seconds = batchEnd ? s.greaterInterval : Math.min(Math.max(random, 0), 1) * s.messageInterval;
  return Math.round(seconds * 1000 * scale);
}

/**
 * How long `remaining` more messages take on average after `sent` went out (#41: campaigns
 * gave no idea of when they would end): half of `messageInterval` per message (the wait is
 * random up to it) and `greaterInterval` at every batch end, as `campaignDelayMs` paces them.
 * The connection's shared limiter and the contacts' confirmations can only make it later.
 */
export function campaignEstimateMs(s: CampaignSettings, remaining: number, sent: number, scale = 1): number {
  if (remaining <= 0) return 0;
  const first = sent === 0 ? 1 : sent; // the first message of a run goes at once
  const pauses = Math.floor((sent + remaining - 1) / s.longerIntervalAfter) - Math.floor((first - 1) / s.longerIntervalAfter);
  const waits = (sent === 0 ? remaining - 1 : remaining) - Math.max(0, pauses);
  return Math.round((Math.max(0, pauses) * s.greaterInterval + Math.max(0, waits) * s.messageInterval / 2) * 1000 * scale);
}

// ---------------------------------------------------------------------------------------------
// Messages

/** The variants one contact can get: the filled slots, with their confirmation messages. */
export function variants(c: Campaign): Array<{ slot: MessageSlot; message: string; confirmationMessage: string }> {
  return MESSAGE_SLOTS.filter((n) => c[`message${n}`] !== "").map((n) => ({
    slot: n,
    message: c[`message${n}`],
    confirmationMessage: c[`confirmationMessage${n}`],
  }));
}

/** Picks one of `count` variants from a random number in [0, 1). */
export function pickVariant(count: number, random: number): number {
  return Math.min(count - 1, Math.floor(Math.max(random, 0) * count));
}

export interface CampaignRecipient {
  name: string;
  number: string;
  email: string | null;
}

/**
 * A campaign message for one contact: the customer-text variables (domain/message_template.ts;
 * the older `{nome}`, `{primeiroNome}`, `{email}`, `{numero}` still read) and the settings'
 * own variables (`{{atalho}}`, or `{atalho}` as before). Unknown placeholders stay as typed.
 * `when` is the moment of the claim in the company's zone (`{{saudacao}}`, `{{data}}`, `{{hora}}`).
 */
export function renderCampaignMessage(
  template: string,
  to: CampaignRecipient,
  variables: readonly CampaignVariable[] = [],
  when: { now: number; timeZone: string } = { now: Date.now(), timeZone: DEFAULT_TIME_ZONE },
): string {
  return fillTemplate(template, { name: to.name, number: to.number, email: to.email, ...when, extra: variables });
}

/**
 * A positive answer to the confirmation message: 1, sim, yes (case, accents, punctuation
 * ignored). Every inbound message is asked this: a text with more than three ASCII letters or
 * digits is none (folding keeps each of them, and the answers have three at most), which a
 * scan of its first characters tells without the Unicode folding and expression.
 */
export function isPositiveConfirmation(text: string): boolean {
  let alphanumeric = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57)) && ++alphanumeric > 3) return false;
  }
  const t = foldText(text).replace(/[^\p{L}\p{N}]+/gu, " ").trim();
  return t === "1" || t === "sim" || t === "yes";
}

// ---------------------------------------------------------------------------------------------
// Shipping rows and the report (§2.4, §3 shipping[])

/**
 * One contact's shipping row, written BEFORE anything is sent to it (see actors/campaigns/).
 * `confirmationRequestedAt` / `deliveredAt` are set once the provider has accepted the
 * confirmation / the campaign message; `confirmedAt` when the positive reply arrived.
 */
export const CampaignShipping = z.object({
  id: z.number(),
  campaignId: z.number(),
  number: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  contactId: z.number().nullable(),
  whatsappId: z.number(),
  slot: z.number(),
  message: z.string(),
  confirmationMessage: z.string().nullable(),
  confirmationRequestedAt: z.number().nullable(),
  confirmedAt: z.number().nullable(),
  deliveredAt: z.number().nullable(),
  /** Why it could not be sent (invalid number, connection gone…), else null. */
  error: z.string().nullable().default(null),
});
export type CampaignShipping = z.infer<typeof CampaignShipping>;

/** The report's counts (§2.4 cards and status line). */
export interface CampaignCounts {
  validContacts: number;
  confirmationRequested: number;
  confirmed: number;
  delivered: number;
  pending: number;
  failed: number;
}

/**
 * The report's counts from the rows' tally (domain/campaign_report.ts ShippingTally, kept by
 * the campaigns actor); `validContacts` is the list's WhatsApp-valid count.
 */
export function campaignCounts(
  validContacts: number,
  tally: { requested: number; confirmed: number; delivered: number; failed: number },
): CampaignCounts {
  const { requested: confirmationRequested, confirmed, delivered, failed } = tally;
  return {
    validContacts,
    confirmationRequested,
    confirmed,
    delivered,
    failed,
    pending: Math.max(0, validContacts - delivered - failed),
  };
}

/**
 * A campaign as the API and the events show it: dates as ISO text, `whatsappId` as the first
 * connection of the rotation (the list in `whatsappIds`), without the engine's bookkeeping.
 */
export function campaignView(c: Campaign & { engine?: unknown }) {
  const { engine: _engine, ...rest } = c;
  return {
    ...rest,
    whatsappId: c.whatsappIds[0] ?? null,
    scheduledAt: c.scheduledAt === null ? null : new Date(c.scheduledAt).toISOString(),
    completedAt: c.completedAt === null ? null : new Date(c.completedAt).toISOString(),
    createdAt: new Date(c.createdAt).toISOString(),
    updatedAt: new Date(c.updatedAt).toISOString(),
  };
}
export type CampaignView = ReturnType<typeof campaignView>;
