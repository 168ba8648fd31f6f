/**
 * Messages of a ticket (spec 000 §3 "Message", §4 "Message delivery (ack)", §5 "Messages",
 * §7 "Messages"): the stored record, the shape the API returns, the list-preview text rule
 * and the bodies and queries of `/messages/*`. Pure; importable by islands.
 *
 * Ids are strings that sort by time within a ticket and name their ticket, so a page is one
 * reverse `kv.list` and `/messages/edit/{id}` finds the ticket without an index:
 * `{ms since epoch, 13 digits}{per-ms counter, 3 digits}-{ticketId}`.
 */
import { z } from "zod";
import type { MediaType as ChannelMediaType } from "./channel.ts";
import { foldText } from "./contact.ts";
import { Flag, Id, isHttpUrl, MAX } from "./text.ts";

/** Media types of the spec (plus "chat" for plain text, and the channel's extra kinds). */
export const MEDIA_TYPES = [
  "chat",
  "image",
  "audio",
  "video",
  "application",
  "document",
  "locationMessage",
  "contactMessage",
  "contactsArrayMessage",
  "vcard",
  "call_log",
  "sticker",
  "reactionMessage",
] as const satisfies readonly ChannelMediaType[];

export const MediaType = z.enum(MEDIA_TYPES);
export type MediaType = z.infer<typeof MediaType>;

/** Media types shown as "a contact was sent" (spec 000 §2 preview rule). */
export const CONTACT_CARD_TYPES: ReadonlySet<MediaType> = new Set([
  "contactMessage",
  "contactsArrayMessage",
  "vcard",
]);

/** Delivery ack (spec 000 §4): 0 pending, 1–2 sent, 3 delivered, 4–5 read. */
export const Ack = z.number().int().min(0).max(5);
export type Ack = z.infer<typeof Ack>;

/** The sender inside a group chat. */
export const Participant = z.object({ number: z.string(), name: z.string() });
export type Participant = z.infer<typeof Participant>;

/** A message as stored under `["message", companyId, ticketId, id]`. */
export const Message = z.object({
  id: z.string(),
  ticketId: z.number(),
  companyId: z.number(),
  /** The ticket's contact (for a group, the group). */
  contactId: z.number(),
  body: z.string(),
  fromMe: z.boolean(),
  mediaType: MediaType,
  /** File name under `{dataDir}/company{companyId}/`; the API turns it into a signed URL. */
  mediaUrl: z.string().nullable(),
  /** The file name the sender gave. */
  mediaName: z.string().nullable(),
  /** MIME type of the media file (for sending it on). */
  mimetype: z.string().nullable().default(null),
  quotedMsgId: z.string().nullable(),
  isDeleted: z.boolean(),
  isEdited: z.boolean(),
  ack: Ack,
  read: z.boolean(),
  /** The provider's (WhatsApp's) id; unique per company (see `provider_log` in actors/messages/keys.ts). */
  providerId: z.string().nullable(),
  /** Group messages: who wrote it. */
  participant: Participant.nullable(),
  /** The staff member who sent it (null for inbound, system and phone-sent messages). */
  userId: z.number().nullable().default(null),
  /** Set when sending failed for good (`ERR_SENDING_WAPP_MSG`), shown as failed. */
  failed: z.object({ code: z.string(), attempts: z.number() }).nullable().default(null),
  /** Send attempts that failed so far (retries still pending). */
  sendAttempts: z.number().default(0),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type Message = z.infer<typeof Message>;

/** Builds a message id: time first (sortable), the ticket last (see the module doc). */
export function messageId(ticketId: number, at: number, seq: number): string {
  return `${String(Math.max(0, Math.floor(at))).padStart(13, "0")}${
    String(seq % 1000).padStart(3, "0")
  }-${ticketId}`;
}

/** The ticket, time and sequence a message id names, or null for text that is not a message id. */
export function parseMessageId(id: string): { ticketId: number; at: number; seq: number } | null {
  const match = /^(\d{13})(\d{3})-(\d{1,15})$/.exec(id);
  if (!match) return null;
  const ticketId = Number(match[3]);
  return ticketId > 0 ? { ticketId, at: Number(match[1]), seq: Number(match[2]) } : null;
}

/** Message ids in path parameters and bodies. */
export const MessageIdText = z.string().max(32, "Invalid message id").regex(/^\d{16}-\d{1,15}$/, "Invalid message id");

// ---------------------------------------------------------------------------------------
// Preview texts (spec 000 §2 "Ticket list item")

/** Longest preview shown in the ticket list before '...'. */
export const PREVIEW_LENGTH = 20;
/** Longest `lastMessage` kept on a ticket. */
export const LAST_MESSAGE_LENGTH = 255;

export const PREVIEW_TEXT = {
  none: "---",
  contact: "Novo Contato recebido",
  location: "Localização recebida",
} as const;

/**
 * The text a ticket keeps as `lastMessage` after `message`: the body (bounded), or the
 * spec's fixed texts for a contact card and a location.
 */
export function lastMessageText(message: Pick<Message, "body" | "mediaType" | "mediaName">): string {
  if (CONTACT_CARD_TYPES.has(message.mediaType) || message.body.startsWith("BEGIN:VCARD")) {
    return PREVIEW_TEXT.contact;
  }
  if (message.mediaType === "locationMessage") return PREVIEW_TEXT.location;
  const text = message.body.trim() || message.mediaName || "";
  return text.slice(0, LAST_MESSAGE_LENGTH);
}

/**
 * What the ticket list shows for `lastMessage`: cut to 20 characters plus '...' when longer,
 * '---' when empty. Texts from older stores (a raw vCard) get the contact text too.
 */
export function listPreview(lastMessage: string | null | undefined): string {
  const text = (lastMessage ?? "").trim();
  if (text === "") return PREVIEW_TEXT.none;
  if (text.includes("BEGIN:VCARD")) return PREVIEW_TEXT.contact;
  if (text.includes("data:image/png;base64")) return PREVIEW_TEXT.location;
  const chars = [...text];
  return chars.length > PREVIEW_LENGTH ? `${chars.slice(0, PREVIEW_LENGTH).join("")}...` : text;
}

/** The media type of an uploaded file, from its MIME type (spec: image, audio, video, application). */
export function mediaTypeOfMime(mimetype: string): MediaType {
  const main = mimetype.split("/")[0]?.toLowerCase();
  if (main === "image" || main === "audio" || main === "video") return main;
  return "application";
}

/** The signature prefix of an agent's message (setting `sendSignMessage`). */
export function signedBody(userName: string, body: string): string {
  return `*${userName}:*\n${body}`;
}

// ---------------------------------------------------------------------------------------
// API shapes

/** A quoted message as the conversation shows it. */
export interface QuotedView {
  id: string;
  body: string;
  fromMe: boolean;
  mediaType: MediaType;
}

/** A message as every API response and `appMessage` event carries it. */
export interface MessageView extends
  Omit<
    Message,
    "createdAt" | "updatedAt" | "mediaUrl" | "sendAttempts"
  > {
  /** Signed, expiring URL of the media file (null when none). */
  mediaUrl: string | null;
  contact: { id: number; name: string } | null;
  quotedMsg: QuotedView | null;
  createdAt: string;
  updatedAt: string;
}

/** GET /messages/{ticketId} query. */
export const MessagePageQuery = z.object({
  pageNumber: z.coerce.number().int().min(1).catch(1).default(1),
});
export type MessagePageQuery = z.infer<typeof MessagePageQuery>;

/**
 * WhatsApp lets a sent message be edited for 15 minutes; an edit after that never reaches
 * the customer, so the product refuses it instead of showing an edit nobody else sees.
 */
export const EDIT_WINDOW_MS = 15 * 60_000;

/** Whether a message stored at `createdAt` (ms) may still be edited at `now`. */
export function editWindowOpen(createdAt: number, now: number): boolean {
  return now - createdAt < EDIT_WINDOW_MS;
}

/** Messages per page of GET /messages/{ticketId}. */
export const MESSAGE_PAGE_SIZE = 20;

/** Longest message body accepted (WhatsApp's own limit is about 65,000 characters). */
export const MAX_BODY = 20_000;

/**
 * Most files one POST /messages/{ticketId} sends (issue #24: the list had no bound). WhatsApp
 * Web's own picker sends up to 30 at a time; each becomes a message of the ticket.
 */
export const MAX_SEND_FILES = 30;

/** A quoted message as the client sends it: the message object, or just its id. */
const QuotedRef = z.preprocess(
  (v) => (typeof v === "object" && v !== null && "id" in v ? (v as { id: unknown }).id : v),
  MessageIdText.nullable().optional().catch(null),
);

/**
 * POST /messages/{ticketId} as JSON (spec 000 §7: read, fromMe, mediaUrl, body, quotedMsg).
 * `signMessage: false` asks for no signature (see `sendSignMessage`). Blank text is judged by
 * the handler, because a multipart upload may carry media with no caption.
 */
export const SendMessageInput = z.object({
  body: z.string().max(MAX_BODY, "Too Long!").default(""),
  quotedMsg: QuotedRef,
  read: Flag.optional().catch(undefined),
  fromMe: Flag.optional().catch(undefined),
  mediaUrl: z.string().max(MAX.url, "Too Long!").nullable().optional(),
  signMessage: Flag.optional().catch(undefined),
});
export type SendMessageInput = z.infer<typeof SendMessageInput>;

/** POST /messages/edit/{id} and PUT /messages/{id}: the new text; empty is refused. */
export const EditMessageInput = z.object({
  body: z.string({ error: "Required" }).trim().min(1, "Required").max(MAX_BODY, "Too Long!"),
});
export type EditMessageInput = z.infer<typeof EditMessageInput>;

/** DELETE /messages/delete body. */
export const DeleteMessagesInput = z.object({
  messages: z.preprocess(
    (v) => (Array.isArray(v) ? v : v === undefined ? v : [v]),
    z.array(z.union([MessageIdText, z.object({ id: MessageIdText }).transform((m) => m.id)]))
      .min(1, "Required").max(100),
  ),
});
export type DeleteMessagesInput = z.infer<typeof DeleteMessagesInput>;

/** Text of the forward and send-contact checks (spec 000 §5, §8). */
export const SELECT_ONE_CONTACT = "Selecione pelo menos um contato";

const IdList = z.preprocess(
  (v) => (Array.isArray(v) ? v : v === undefined || v === null || v === "" ? [] : [v]),
  z.array(z.union([Id, z.object({ id: Id }).transform((c) => c.id)])).max(MAX.list, "Too Long!"),
);

/** POST /messages/forward/send body. */
export const ForwardMessagesInput = z.object({
  messages: z.preprocess(
    (v) => (Array.isArray(v) ? v : v === undefined ? [] : [v]),
    z.array(z.union([MessageIdText, z.object({ id: MessageIdText }).transform((m) => m.id)]))
      .min(1, "Required").max(50),
  ),
  contacts: IdList.pipe(z.array(z.number()).min(1, SELECT_ONE_CONTACT).max(50)),
  whatsappId: Id.optional(),
  queue: z.preprocess(
    (v) => (typeof v === "object" && v !== null && "id" in v ? (v as { id: unknown }).id : v),
    z.coerce.number().int().positive().nullable().optional().catch(null),
  ),
});
export type ForwardMessagesInput = z.infer<typeof ForwardMessagesInput>;

/** POST /messages/sendContact/{ticketId} body. */
export const SendContactInput = z.object({
  contactsId: IdList.pipe(z.array(z.number()).min(1, SELECT_ONE_CONTACT).max(20)),
});
export type SendContactInput = z.infer<typeof SendContactInput>;

/** GET /messages/searchMessage/{ticketId} query. */
export const SearchMessageQuery = z.object({
  searchedTerm: z.string().trim().max(200).default(""),
});
export type SearchMessageQuery = z.infer<typeof SearchMessageQuery>;

/** GET /messages/metadados query. */
export const LinkPreviewQuery = z.object({
  url: z.string({ error: "Required" }).trim().min(1, "Required").max(2048),
});
export type LinkPreviewQuery = z.infer<typeof LinkPreviewQuery>;

/** A link preview (spec 000 §3 "Link preview"). */
export interface LinkPreview {
  image: string | null;
  title: string | null;
  description: string | null;
  url: string;
}

/** A vCard 3.0 for a contact card message. */
export function vcard(name: string, number: string): string {
  const clean = name.replace(/[\r\n;]/g, " ").trim();
  const digits = number.replace(/\D/g, "");
  return [
    "BEGIN:VCARD",
    "VERSION:3.0",
    `N:;${clean};;;`,
    `FN:${clean}`,
    `TEL;type=CELL;waid=${digits}:+${digits}`,
    "END:VCARD",
  ].join("\n");
}

/**
 * The name and number of a contact card's vCard (the first card of a list): the `FN` line,
 * and the `waid` of the first `TEL` (WhatsApp's own id), else that line's digits. Either is ""
 * when the card lacks it (spec 000 §5: a lookup needs both).
 */
export function readVcard(body: string): { name: string; number: string } {
  const name = /^FN[^:\n]*:(.*)$/m.exec(body)?.[1]?.trim() ?? "";
  const tel = /^(?:item\d+\.)?TEL[^:\n]*:.*$/im.exec(body)?.[0] ?? "";
  const waid = /waid=(\d+)/.exec(tel)?.[1];
  const number = waid ?? tel.slice(tel.indexOf(":") + 1).replace(/\D/g, "");
  return { name, number };
}

// ---------------------------------------------------------------------------------------
// Search words

/** Shortest word the message-body search indexes and looks up. */
export const MIN_WORD = 3;

const ASCII = /^\p{ASCII}*$/u;

/**
 * The distinct searchable words of `text` (folded, letters and digits, ≥ 3 characters).
 * ASCII text (most messages) takes a fast path without Unicode normalisation.
 */
export function wordsOf(text: string): Set<string> {
  const words = new Set<string>();
  const ascii = ASCII.test(text);
  const parts = ascii ? text.toLowerCase().split(/[^a-z0-9]+/) : foldText(text).split(/[^\p{L}\p{N}]+/u);
  for (const word of parts) {
    if (word.length >= MIN_WORD && word.length <= 64) words.add(word);
  }
  return words;
}

/**
 * The map link of a location message's body, or null (issue #38). Channels store coordinates
 * or a maps URL, with a name and address around it (`url|label`, or lines); a body comes from
 * the sender, so only an http(s) URL may become a link: `javascript:` and every other scheme
 * are shown as text, never as an href.
 */
export function locationHref(body: string): string | null {
  const coords = /(-?\d+\.\d+)\s*,\s*(-?\d+\.\d+)/.exec(body);
  if (coords) return `https://maps.google.com/maps?q=${coords[1]},${coords[2]}`;
  return body.split(/[|\n]/).map((part) => part.trim()).find(isHttpUrl) ?? null;
}
