/** Contacts (spec 000 §3, §5; 001 §2.14, §3). Numbers are stored as digits only. */
import { z } from "zod";
import { SearchPage } from "./paging.ts";
import { EmailAddress, Flag, Id, MAX, MSG, sized } from "./text.ts";
import { typedPhone } from "./phone_number.ts";

export const ExtraInfo = z.object({ name: z.string().max(MAX.name, MSG.tooLong), value: z.string().max(MAX.message, MSG.tooLong) });

export const Contact = z.object({
  id: z.number(),
  companyId: z.number(),
  name: z.string(),
  /** Digits only; for groups the group id. */
  number: z.string(),
  email: z.string(),
  profilePicUrl: z.string(),
  disableBot: z.boolean(),
  extraInfo: z.array(ExtraInfo),
  walleteUserId: z.number().nullable(),
  acceptAudioMessage: z.boolean(),
  active: z.boolean(),
  isGroup: z.boolean(),
  /** WhatsApp LID when the channel revealed one (never stored as `number`). */
  lid: z.string().nullable(),
  channel: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type Contact = z.infer<typeof Contact>;

/** Digits of a phone number, as every lookup compares them. */
export function normalizeNumber(raw: string): string {
  return raw.replace(/\D/g, "");
}

/** A wallet owner in a form: a user id, or none as null, "", 0. */
const WalletUserId = z.preprocess(
  (v) => (v === "" || v === 0 || v === "0" ? null : v),
  z.coerce.number().int().positive().nullable(),
);

/**
 * A contact's number as typed: its 8 to 50 digits (spec 000 §9), with a leading "+" when it
 * named its country. The server reads it for the company (phone_number.ts `normalizePhone`).
 */
export const PhoneNumber = z.string({ error: MSG.required }).max(MAX.phone, MSG.tooLong).transform(typedPhone).refine(
  (v) => normalizeNumber(v).length >= 8,
  MSG.tooShort,
).refine((v) => normalizeNumber(v).length <= 50, MSG.tooLong);

/** POST /contacts and PUT /contacts/{id} body (spec 000 §5). */
export const ContactInput = z.object({
  name: sized(2, 50),
  number: PhoneNumber,
  email: z.union([z.literal(""), EmailAddress]).default(""),
  disableBot: z.boolean().default(false),
  acceptAudioMessage: z.boolean().default(true),
  extraInfo: z.array(ExtraInfo).max(MAX.fields, MSG.tooLong).default([]),
  walleteUserId: WalletUserId.optional(),
});
export type ContactInput = z.infer<typeof ContactInput>;

/** PUT /contacts/{id} body: the fields of POST /contacts, all optional, no defaults. */
export const ContactUpdate = z.object({
  name: sized(2, 50).optional(),
  number: PhoneNumber.optional(),
  email: z.union([z.literal(""), EmailAddress]).optional(),
  disableBot: z.boolean().optional(),
  acceptAudioMessage: z.boolean().optional(),
  extraInfo: z.array(ExtraInfo).max(MAX.fields, MSG.tooLong).optional(),
  walleteUserId: WalletUserId.optional(),
});
export type ContactUpdate = z.infer<typeof ContactUpdate>;

/**
 * PUT /wallets/contacts body: the contacts screen's 'Adicionar a carteira' (spec 001 §2.14,
 * §6, admin only) puts every selected contact in one user's wallet, or null takes them out.
 */
export const WalletAssign = z.object({
  contactIds: z.array(Id).min(1).max(10_000),
  walleteUserId: WalletUserId,
});
export type WalletAssign = z.infer<typeof WalletAssign>;

/**
 * GET /wallets/contacts/ query: the search and page, and whose wallet (`userId`; absent: the
 * caller's own, or every wallet for whoever holds `wallet:fullUserList`).
 */
export const WalletListQuery = SearchPage.extend({ userId: Id.optional().catch(undefined) });
export type WalletListQuery = z.infer<typeof WalletListQuery>;

/** What a channel knows about a sender: the input of `findOrCreateContact`. */
export interface NewContact {
  number: string;
  name: string;
  isGroup: boolean;
  lid?: string | null;
  channel?: string;
  profilePicUrl?: string;
}

/** The stored fields a create sets; everything else gets its default. */
export type ContactFields = Partial<Omit<Contact, "id" | "companyId" | "createdAt" | "updatedAt">>;

/** A full contact record from partial fields (defaults of spec 000 §3). */
export function buildContact(
  id: number,
  companyId: number,
  fields: ContactFields,
  now: number,
): Contact {
  return {
    id,
    companyId,
    name: fields.name ?? "",
    number: fields.number ?? "",
    email: fields.email ?? "",
    profilePicUrl: fields.profilePicUrl ?? "",
    disableBot: fields.disableBot ?? false,
    extraInfo: fields.extraInfo ?? [],
    walleteUserId: fields.walleteUserId ?? null,
    acceptAudioMessage: fields.acceptAudioMessage ?? true,
    active: fields.active ?? true,
    isGroup: fields.isGroup ?? false,
    lid: fields.lid ?? null,
    channel: fields.channel ?? "whatsapp",
    createdAt: now,
    updatedAt: now,
  };
}

/** The same empty list for every contact without extra fields (records are replaced, never mutated). */
const NO_EXTRA_INFO: Contact["extraInfo"] = Object.freeze([]) as unknown as Contact["extraInfo"];

/**
 * A stored record as it stays in memory: KV's deserializer builds each object property by
 * property (its fields land in a separate PropertyArray) and gives every record its own copy
 * of "whatsapp" and its own empty `extraInfo`. Rebuilt as one literal, every contact shares
 * one hidden class with its fields in the object, the channel name and the empty list are
 * shared: three heap objects fewer per contact, which is what the full collector walks
 * (issue #23 §2/§3: a 100k-ticket company's major GC marked 3.3 million objects).
 */
export function residentContact(r: Contact): Contact {
  return {
    id: r.id,
    companyId: r.companyId,
    name: r.name,
    number: r.number,
    email: r.email,
    profilePicUrl: r.profilePicUrl,
    disableBot: r.disableBot,
    extraInfo: r.extraInfo.length ? r.extraInfo : NO_EXTRA_INFO,
    walleteUserId: r.walleteUserId,
    acceptAudioMessage: r.acceptAudioMessage,
    active: r.active,
    isGroup: r.isGroup,
    lid: r.lid,
    channel: r.channel === "whatsapp" ? "whatsapp" : r.channel,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

/**
 * A record already in residentContact's shape (a snapshot's, actors/_runtime/record_snapshot.ts)
 * given its shared values in place: the channel name and the empty list.
 */
export function settleResidentContact(c: Contact): Contact {
  if (c.channel === "whatsapp") c.channel = "whatsapp";
  if (c.extraInfo.length === 0) c.extraInfo = NO_EXTRA_INFO;
  return c;
}

/** A WhatsApp LID without its `@lid` domain and device suffix; "" when absent. */
export function normalizeLid(raw: string | null | undefined): string {
  if (!raw) return "";
  return raw.trim().replace(/@lid$/i, "").replace(/:\d+$/, "");
}

/** Lower-case text without accents: how names are sorted and searched. */
export function foldText(text: string): string {
  // Most names are printable ASCII: skip the Unicode decomposition for them.
  if (!/[^ -~]/.test(text)) return text.toLowerCase();
  return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
}

/** The text a search over name, number and e-mail looks in. */
export function contactSearchText(contact: Contact): string {
  // `join` makes one flat string; a template literal leaves a tree of three cons strings,
  // kept per contact until a search flattens them.
  // Each part without \u0001, so the first one ends the name (the contacts' sort key).
  const part = (text: string) => text.includes("\u0001") ? text.replaceAll("\u0001", "") : text;
  return [part(foldText(contact.name)), part(contact.number), part(contact.email.toLowerCase())].join("\u0001");
}

/** A test of `contactSearchText` values against a search term (name, number or e-mail). */
export function contactMatcher(term: string): (searchText: string) => boolean {
  const needles = contactNeedles(term);
  if (needles.length === 0) return () => true;
  const [folded, digits] = needles;
  return (text) => text.includes(folded) || (digits !== undefined && text.includes(digits));
}

/**
 * What a search text must contain, one of, to match `term` (contactMatcher): the folded term,
 * and its digits alone when it is a phone number written with spaces, dots or dashes. None
 * for a blank term (everything matches).
 */
export function contactNeedles(term: string): string[] {
  const folded = foldText(term.trim());
  if (!folded) return [];
  const compact = term.replace(/[\s().+-]/g, "");
  return /^\d+$/.test(compact) && compact !== folded ? [folded, compact] : [folded];
}

/**
 * The record that stays after merging `from` into `into` (a LID-only contact into the
 * contact with the real number): `into` keeps its own values and takes from `from` what it
 * lacks.
 */
export function mergeContactRecords(from: Contact, into: Contact, now: number): Contact {
  const names = new Set(into.extraInfo.map((e) => e.name));
  return {
    ...into,
    name: into.name && into.name !== into.number ? into.name : from.name || into.name,
    number: into.number || from.number,
    email: into.email || from.email,
    profilePicUrl: into.profilePicUrl || from.profilePicUrl,
    lid: into.lid ?? from.lid,
    walleteUserId: into.walleteUserId ?? from.walleteUserId,
    extraInfo: [...into.extraInfo, ...from.extraInfo.filter((e) => !names.has(e.name))],
    updatedAt: now,
  };
}

/** A light view of a contact for pickers (GET /contacts/list). */
export function contactListItem(contact: Contact) {
  return { id: contact.id, name: contact.name, number: contact.number };
}

/** The text of spec 000 §8 when a contact already sits in another user's wallet. */
export function walletTakenMessage(name: string): string {
  return `O contato: ${name} já está adicionado a uma carteira.`;
}

/** The text of spec 000 §8 when a number already belongs to a contact. */
export function duplicatedNameMessage(name: string): string {
  return `Contato já cadastrado com o nome ${name}`;
}

/** One of the spec's server messages that name a contact, as a client translates it. */
export interface ContactMessage {
  kind: "walletTaken" | "duplicatedName";
  name: string;
}

const CONTACT_MESSAGES: ReadonlyArray<[ContactMessage["kind"], RegExp]> = [
  ["walletTaken", /^O contato: (.+) já está adicionado a uma carteira\.$/s],
  ["duplicatedName", /^Contato já cadastrado com o nome (.+)$/s],
];

/**
 * Reads a server message carrying one of the spec's contact texts (walletTakenMessage,
 * duplicatedNameMessage), so the browser shows it, in its language, instead of the generic
 * text of the error's code; null for any other message.
 */
export function readContactMessage(text: unknown): ContactMessage | null {
  if (typeof text !== "string") return null;
  for (const [kind, pattern] of CONTACT_MESSAGES) {
    const name = pattern.exec(text)?.[1];
    if (name) return { kind, name };
  }
  return null;
}

/**
 * Who may change a contact's wallet (spec 000 §5–§6, 001 §6): whoever holds
 * `wallet:fullUserList` (admin) assigns anyone; everyone else may only put a contact in
 * their own wallet or take it out of it, and never takes one from another user's wallet.
 * Returns the refusal text, or null when allowed.
 */
export function walletChangeRefusal(
  who: { id: number; fullWallet: boolean },
  contact: Pick<Contact, "name" | "walleteUserId">,
  next: number | null,
): string | null {
  if (who.fullWallet || next === contact.walleteUserId) return null;
  if (contact.walleteUserId !== null && contact.walleteUserId !== who.id) {
    return walletTakenMessage(contact.name);
  }
  if (next !== null && next !== who.id) return "Sem Permissão!";
  return null;
}

/** GET /contacts/list query: the pickers' search. */
export const ContactListQuery = z.object({
  searchParam: z.string().trim().max(200).default(""),
  name: z.string().trim().max(200).default(""),
  /** Only the WhatsApp groups (true) or only people (false); both when absent (the campaign dialog's group list asks for groups). */
  isGroup: Flag.optional(),
});

/** DELETE /contacts/bulk-delete body. */
export const ContactBulkDelete = z.object({ contactIds: z.array(Id).min(1).max(10_000) });
/** PUT /contacts/block/{id} body. */
export const ContactBlockBody = z.object({ active: Flag });
/** GET /contacts/photo query. */
export const ContactPhotoQuery = z.object({ number: z.string().min(1).max(MAX.phone, MSG.tooLong), whatsappId: Id.optional() });
/** GET /contacts/lookup query: a contact card's number, and the connection it came through. */
export const ContactLookupQuery = z.object({ number: PhoneNumber, whatsappId: Id.optional() });
/** POST /contacts query: `?onDuplicate=report` answers a known number with 200 `{ alreadyExists: true, … }`. */
export const ContactCreateQuery = z.object({ onDuplicate: z.enum(["error", "report"]).default("error") });

/** A query parameter holding a JSON array of ids (or of objects with an id), MAX.list at most. */
const JsonIds = z.string().max(MAX.list * 20, MSG.tooLong).optional().transform((raw, ctx): number[] => {
  if (!raw || raw.trim() === "") return [];
  try {
    const value: unknown = JSON.parse(raw);
    const list = Array.isArray(value) ? value : [value];
    if (list.length > MAX.list) {
      ctx.addIssue({ code: "custom", message: MSG.tooLong });
      return z.NEVER;
    }
    return list.map((v) =>
      Number(typeof v === "object" && v !== null ? (v as { id: unknown }).id : v)
    )
      .filter((n) => Number.isSafeInteger(n) && n > 0);
  } catch {
    ctx.addIssue({ code: "custom", message: "Expected a JSON array of ids" });
    return z.NEVER;
  }
});

/** GET /exportar/baixar query: tags, queues and contacts, each a JSON array of ids. */
export const ContactExportQuery = z.object({ tags: JsonIds, queueIds: JsonIds, contactIds: JsonIds });
