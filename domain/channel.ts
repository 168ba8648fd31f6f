/**
 * The one interface every WhatsApp channel adapter implements (DESIGN §6), and the shapes
 * that cross it. Adapters live in `server/channels/`; the session actor drives them.
 */
import type { MenuList } from "./bot_walker.ts";

export type SessionStatus =
  | "DISCONNECTED"
  | "OPENING"
  | "qrcode"
  | "PAIRING"
  | "CONNECTED"
  | "TIMEOUT";

export type MediaType =
  | "chat"
  | "image"
  | "audio"
  | "video"
  | "application"
  | "document"
  | "locationMessage"
  | "contactMessage"
  | "contactsArrayMessage"
  | "vcard"
  | "call_log"
  | "sticker"
  | "reactionMessage";

/** A message received from (or sent by the company's phone to) a customer. */
export interface InboundMessage {
  /** The provider's message id; the same id delivered twice is stored once. */
  providerId: string;
  /** Normalised digits of the customer (or of the group, for group chats). */
  from: string;
  /** Display name the provider gives the sender. */
  name: string;
  body: string;
  mediaType: MediaType;
  /** Media bytes, when the message carries media. */
  media?: { data: Uint8Array; mimetype: string; filename: string };
  /** True when the company's own phone sent it (it joins the ticket as sent). */
  fromMe: boolean;
  isGroup: boolean;
  /** For group messages: the group's id and name, and the participant who wrote. */
  group?: { id: string; name: string };
  participant?: { number: string; name: string };
  /** Provider id of the message this one quotes. */
  quotedProviderId?: string;
  /** WhatsApp LID of the sender when the provider addresses it by LID. */
  lid?: string;
  /** Send time reported by the provider, in ms. */
  timestamp: number;
}

/** An outgoing message the session asks its adapter to send. */
export interface OutboundMessage {
  to: string;
  isGroup: boolean;
  body: string;
  media?: { path: string; mimetype: string; filename: string; mediaType: MediaType };
  quotedProviderId?: string;
  /** An approved template to send instead of `body` (WhatsApp Cloud API only). */
  template?: TemplateSend;
  /**
   * A WhatsApp list to show with the bot's menu (setting chatBotType "list"). `body` always
   * holds the same menu as text: a channel that cannot send lists sends `body`.
   */
  list?: MenuList;
  /**
   * A sender-chosen id that makes a repeated send recognisable (campaigns after a crash): a
   * provider that honours it delivers a key once and answers a repeat with the first id.
   */
  idempotencyKey?: string;
}

/** A Cloud API message template: its name, language code and positional body parameters. */
export interface TemplateSend {
  name: string;
  language: string;
  params: string[];
}

/**
 * Send refusals no retry can fix: an adapter throws an AppError with one of these codes and
 * the message fails at once, carrying the code (e.g. the Cloud API's closed 24-hour window).
 */
export const FINAL_SEND_ERRORS: readonly string[] = ["ERR_CLOUDAPI_WINDOW_CLOSED"];

/** What an adapter reports to its session. */
export type AdapterEvent =
  | { type: "qr"; qrcode: string }
  | { type: "pairing" }
  | { type: "connected"; number: string }
  | { type: "disconnected"; reason: string; loggedOut: boolean }
  | { type: "message"; message: InboundMessage }
  | { type: "ack"; providerId: string; ack: number }
  /** The provider could not deliver a message it had accepted (`code`: an error code). */
  | { type: "failed"; providerId: string; code: string }
  | { type: "edit"; providerId: string; body: string }
  | { type: "delete"; providerId: string }
  | { type: "lid"; lid: string; number: string }
  /**
   * Named people the phone reported (Baileys' contacts.upsert and its history sync, the
   * simulator's address book when it connects): created as contacts when the platform setting
   * allowupserts is on (server/channels/contact_upserts.ts).
   */
  | { type: "contacts"; contacts: PhoneContact[] }
  /** A voice or video call from `from` (digits); `callId` is the provider's, for rejecting it. */
  | { type: "call"; callId: string; from: string; name: string; isVideo: boolean };

/** One channel implementation (simulator, baileys, evolution, cloud api). */
export interface ChannelAdapter {
  start(): Promise<void>;
  stop(): Promise<void>;
  logout(): Promise<void>;
  sendText(message: OutboundMessage): Promise<{ providerId: string }>;
  sendMedia(message: OutboundMessage): Promise<{ providerId: string }>;
  edit(to: string, providerId: string, body: string): Promise<void>;
  delete(to: string, providerId: string, fromMe: boolean): Promise<void>;
  markRead(to: string, providerIds: string[]): Promise<void>;
  checkNumber(number: string): Promise<{ exists: boolean; jid?: string }>;
  profilePicture(number: string): Promise<string | null>;
  /** Declines an incoming call (setting `call` off). Optional: without it the call just rings. */
  rejectCall?(callId: string, from: string): Promise<void>;
  /**
   * Creates a WhatsApp group named `title` with `participants` (numbers, digits); resolves
   * with the group's id as digits (the jid's user part, e.g. "120363…"). Optional.
   */
  createGroup?(title: string, participants: string[]): Promise<{ id: string }>;
  /** The numbers (digits) of the group's participants. Optional. */
  groupParticipants?(groupId: string): Promise<string[]>;
  /** Adds `participants` (numbers, digits) to the group. Optional. */
  addGroupParticipants?(groupId: string, participants: string[]): Promise<void>;
  /**
   * The contacts of the phone (the WhatsApp address book the connection knows), for
   * `POST /contacts/import`: individual numbers only (digits), no groups, broadcasts or
   * status, no LID without a known number; each number once. Optional.
   */
  phoneContacts?(): Promise<PhoneContact[]>;
  /**
   * The counterpart of every individual chat the connection has (not groups), for
   * `POST /contacts/import/chats`; same rules as `phoneContacts`. Optional.
   */
  chatContacts?(): Promise<PhoneContact[]>;
}

/** A contact as the phone knows it: digits-only number and the best name it has ("" if none). */
export interface PhoneContact {
  number: string;
  name: string;
}

/**
 * How the ticket side hands an outgoing message to the channel side. The tickets area stores
 * the message with ack 0 first, then calls `send`; the channels area implements the port
 * (session actor, pacing, retries) and reports back through the tickets area's functions.
 */
export interface OutboundRequest {
  companyId: number;
  whatsappId: number;
  ticketId: number;
  /** The stored message's id (its key in the ticket's message list). */
  messageId: string;
  message: OutboundMessage;
}

export interface OutboundPort {
  /**
   * Queues the message for sending; its outbox entry is stored already, with the message
   * (actors/messages/keys.ts `outboxKey`). Must not throw for a connection that is down.
   */
  send(request: OutboundRequest): Promise<void>;
  /** Whether the connection can send now (for `ERR_WAPP_NOT_INITIALIZED`). */
  ready(companyId: number, whatsappId: number): Promise<boolean>;
  /**
   * Edits a sent message on the provider; throws AppError (`ERR_FETCH_WAPP_MSG` when too
   * old, `ERR_SENDING_WAPP_MSG`) to refuse. Optional: without it edits stay local.
   */
  edit?(request: OutboundChange & { body: string }): Promise<void>;
  /**
   * Deletes a message on the provider; throws AppError (`ERR_DELETE_WAPP_MSG`) to refuse.
   * Optional: without it deletes stay local.
   */
  delete?(request: OutboundChange): Promise<void>;
}

/** Which provider message an edit or delete is about (messages API, added by the messages area). */
export interface OutboundChange {
  companyId: number;
  whatsappId: number;
  /** The chat: the contact's number or the group id. */
  to: string;
  isGroup: boolean;
  providerId: string;
  fromMe: boolean;
}
