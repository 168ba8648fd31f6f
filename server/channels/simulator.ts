/**
 * The simulator: a built-in phone for demos and tests (DESIGN §6). It shows a QR text that
 * is "scanned" from the simulator page or API, then delivers messages that a person posts as
 * any customer, keeps what the agents send in an outbox with provider ids, and reports the
 * acks the person posts. The pairing is kept in KV (like a real phone's auth), so a restart
 * resumes a paired simulator without a new QR. Messages posted while the phone is offline
 * are queued and delivered when the session is back (issue #4 "nothing missed").
 * Like a real phone it has an address book (a few demo people, tests add more) and remembers
 * its individual chats (every customer who wrote, every number the agents wrote to), for the
 * contact import.
 */
import type { MenuList } from "../../domain/bot_walker.ts";
import type { ChannelAdapter, InboundMessage, MediaType, OutboundMessage, PhoneContact } from "../../domain/channel.ts";
import { AppError } from "../../domain/errors.ts";
import { type AdapterContext, digits } from "./types.ts";
import { phoneProblem } from "../../domain/phone_number.ts";

/** KV key of a simulator's pairing. */
export const simulatorAuthKey = (companyId: number, whatsappId: number): Deno.KvKey => [
  "simulator_auth",
  companyId,
  whatsappId,
];

/** KV key of a keyed send the simulator's phone received (see SimulatorAdapter #keyed). */
export const simulatorLedgerKey = (companyId: number, whatsappId: number, key: string): Deno.KvKey => [
  "simulator_ledger",
  companyId,
  whatsappId,
  key,
];

/** One keyed send as the phone keeps it; `repeats` counts the repeats it recognised. */
export interface SimulatorLedgerEntry {
  providerId: string;
  to: string;
  body: string;
  at: number;
  repeats: number;
}

/** What the simulator's phone number is: a fixed fake Brazilian mobile per connection. */
export function simulatorNumber(whatsappId: number): string {
  return `55119${String(90000000 + whatsappId).padStart(8, "0")}`;
}

/** A message posted by the person playing the customer (POST /simulator/{id}/inbound). */
export interface SimulatorInbound {
  from: string;
  name: string;
  body: string;
  mediaType?: MediaType;
  mediaBase64?: string;
  /** The file's type and name as the phone picked it (defaults: by `mediaType`). */
  mimetype?: string;
  filename?: string;
  isGroup?: boolean;
  groupId?: string;
  groupName?: string;
  id?: string;
  fromMe?: boolean;
}

/** One message the agents sent, as the simulator's phone received it. */
export interface OutboxEntry {
  id: string;
  to: string;
  isGroup: boolean;
  body: string;
  mediaType: MediaType;
  filename?: string;
  ack: number;
  edited?: boolean;
  deleted?: boolean;
  timestamp: number;
  /** The bot menu as the phone shows a list message (chatBotType "list"). */
  list?: MenuList;
}

/**
 * The address book every simulator phone starts with: the demo's first customers (they write
 * in on `npm start`, so an import finds them known) and a few people who never wrote.
 */
export const SIMULATOR_PHONE_BOOK: readonly PhoneContact[] = [
  { number: "5511987650001", name: "Mariana Souza" },
  { number: "5511987650002", name: "Carlos Lima" },
  { number: "5521998760003", name: "Beatriz Rocha" },
  { number: "5511976540004", name: "Diego Martins" },
  { number: "5531987650005", name: "Eduarda Alves" },
  { number: "5541998760006", name: "Fábio Nogueira" },
];

/** Chats remembered per simulator phone (oldest dropped beyond this). */
const MAX_CHATS = 5000;

/** Marks the pairing of a simulator connection as done (demo seed, tests). */
export async function pairSimulator(kv: Deno.Kv, companyId: number, whatsappId: number): Promise<void> {
  await kv.set(simulatorAuthKey(companyId, whatsappId), { paired: true, number: simulatorNumber(whatsappId) });
}

/** The simulator adapter; see the module doc. */
export class SimulatorAdapter implements ChannelAdapter {
  readonly outbox: OutboxEntry[] = [];
  #ctx: AdapterContext;
  #connected = false;
  #online = true;
  #qrcode = "";
  #pending: InboundMessage[] = [];
  #failures = 0;
  #counter = 0;
  /** Groups this phone created or joined: id (digits) → title and participant numbers. */
  readonly groups = new Map<string, { title: string; participants: Set<string> }>();
  /** The phone's address book: number (digits) → name. Tests add people here. */
  readonly phoneBook = new Map<string, string>(SIMULATOR_PHONE_BOOK.map((c) => [c.number, c.name]));
  /** Individual chats: customer number (digits) → name, from inbound and outbound traffic. */
  readonly chats = new Map<string, string>();

  constructor(ctx: AdapterContext) {
    this.#ctx = ctx;
  }

  /** The QR text shown now ("" when none). */
  get qrcode(): string {
    return this.#qrcode;
  }

  get connected(): boolean {
    return this.#connected;
  }

  /** Messages posted while the phone was away, waiting for the session. */
  get pendingCount(): number {
    return this.#pending.length;
  }

  async start(): Promise<void> {
    this.#connected = false;
    if (!this.#online) {
      this.#ctx.emit({ type: "disconnected", reason: "Simulated phone is offline", loggedOut: false });
      return;
    }
    if (await this.#paired()) return this.#open();
    this.#qrcode = `balcao-simulator:${this.#ctx.companyId}:${this.#ctx.whatsappId}:${crypto.randomUUID()}`;
    this.#ctx.emit({ type: "qr", qrcode: this.#qrcode });
  }

  stop(): Promise<void> {
    this.#connected = false;
    this.#qrcode = "";
    return Promise.resolve();
  }

  async logout(): Promise<void> {
    this.#connected = false;
    this.#qrcode = "";
    await this.#ctx.kv.delete(simulatorAuthKey(this.#ctx.companyId, this.#ctx.whatsappId));
  }

  /** The person scans the QR (or brings an offline phone back). */
  async scan(): Promise<void> {
    this.#online = true;
    if (this.#connected) return;
    if (!(await this.#paired())) {
      if (!this.#qrcode) throw new AppError("ERR_WAPP_NOT_INITIALIZED", { status: 409, message: "There is no QR code to scan" });
      this.#ctx.emit({ type: "pairing" });
      await pairSimulator(this.#ctx.kv, this.#ctx.companyId, this.#ctx.whatsappId);
    }
    this.#open();
  }

  /** The phone loses its connection; reconnects fail until it is scanned (brought back) again. */
  disconnect(): void {
    this.#online = false;
    if (!this.#connected) return;
    this.#connected = false;
    this.#ctx.emit({ type: "disconnected", reason: "Simulated phone went offline", loggedOut: false });
  }

  /** A customer's message: delivered now, or queued until the session is back. */
  inbound(input: SimulatorInbound): { providerId: string; queued: boolean } {
    const message = this.#toMessage(input);
    if (!message.isGroup) this.#chat(message.from, message.name);
    if (!this.#connected) {
      this.#pending.push(message);
      return { providerId: message.providerId, queued: true };
    }
    this.#ctx.emit({ type: "message", message });
    return { providerId: message.providerId, queued: false };
  }

  /** Calls the connection was asked to reject (setting `call` off), oldest first. */
  readonly rejectedCalls: string[] = [];

  /** A customer calls the phone (voice, or video); resolves with the call's id. */
  call(input: { from: string; name: string; isVideo?: boolean }): { callId: string } {
    if (!this.#connected) throw new AppError("ERR_WAPP_NOT_INITIALIZED", { status: 409, message: "Simulator is not connected" });
    const callId = `SIMCALL${crypto.randomUUID().replaceAll("-", "").slice(0, 16).toUpperCase()}`;
    this.#ctx.emit({ type: "call", callId, from: digits(input.from), name: input.name, isVideo: input.isVideo ?? false });
    return { callId };
  }

  rejectCall(callId: string): Promise<void> {
    this.rejectedCalls.push(callId);
    return Promise.resolve();
  }

  /** The person reports an ack for one outbox message. */
  ack(id: string, ack: number): OutboxEntry {
    const entry = this.outbox.find((e) => e.id === id);
    if (!entry) throw new AppError("ERR_NO_MESSAGE_FOUND", { status: 404, message: `No sent message ${id}` });
    entry.ack = Math.max(entry.ack, ack);
    this.#ctx.emit({ type: "ack", providerId: id, ack: entry.ack });
    return entry;
  }

  /**
   * The phone reports `ack` for messages it received, by provider id (the person opened the
   * chat: 4, read). Unlike `ack`, any message the company sent counts, also one sent before a
   * restart (the outbox is this process's memory): the session applies it by provider id.
   */
  receipts(providerIds: readonly string[], ack: number): void {
    for (const providerId of providerIds) {
      const entry = this.outbox.find((e) => e.id === providerId);
      if (entry) entry.ack = Math.max(entry.ack, ack);
      this.#ctx.emit({ type: "ack", providerId, ack });
    }
  }

  /** Makes the next `count` sends fail (tests of retries). */
  failNext(count: number): void {
    this.#failures = count;
  }

  sendText(message: OutboundMessage): Promise<{ providerId: string }> {
    return this.#keyed(message, "chat");
  }

  sendMedia(message: OutboundMessage): Promise<{ providerId: string }> {
    return this.#keyed(message, message.media?.mediaType ?? "document");
  }

  /**
   * A send with an idempotency key is delivered once: the phone keeps the keys it received
   * durably (simulatorLedgerKey, the phone's memory across a server crash) and answers a
   * repeat with the first provider id, counting the repeat, without delivering it again.
   */
  async #keyed(message: OutboundMessage, mediaType: MediaType): Promise<{ providerId: string }> {
    const key = message.idempotencyKey;
    if (key === undefined) return this.#deliver(message, mediaType);
    const ledger = simulatorLedgerKey(this.#ctx.companyId, this.#ctx.whatsappId, key);
    const seen = await this.#ctx.kv.get<SimulatorLedgerEntry>(ledger);
    if (seen.value) {
      await this.#ctx.kv.set(ledger, { ...seen.value, repeats: seen.value.repeats + 1 });
      return { providerId: seen.value.providerId };
    }
    const sent = this.#deliver(message, mediaType);
    const entry: SimulatorLedgerEntry = { providerId: sent.providerId, to: message.to, body: message.body, at: Date.now(), repeats: 0 };
    await this.#ctx.kv.set(ledger, entry);
    return sent;
  }

  edit(_to: string, providerId: string, body: string): Promise<void> {
    const entry = this.#entry(providerId);
    entry.body = body;
    entry.edited = true;
    return Promise.resolve();
  }

  delete(_to: string, providerId: string): Promise<void> {
    this.#entry(providerId).deleted = true;
    return Promise.resolve();
  }

  markRead(): Promise<void> {
    return Promise.resolve();
  }

  /** Numbers the simulated network has no account on, though they could have one (`offWhatsapp`). */
  readonly #unregistered = new Set<string>();

  /** Makes the simulated network answer that `number` has no WhatsApp account (tests, demos). */
  offWhatsapp(number: string): void {
    this.#unregistered.add(digits(number));
  }

  checkNumber(number: string): Promise<{ exists: boolean; jid?: string }> {
    // Like WhatsApp, the simulated network has no account on a number no one can have (#41).
    const n = digits(number);
    const exists = n.length >= 10 && phoneProblem(n) === null && !this.#unregistered.has(n);
    return Promise.resolve(exists ? { exists, jid: `${n}@s.whatsapp.net` } : { exists });
  }

  profilePicture(): Promise<string | null> {
    return Promise.resolve(null);
  }

  /** Creates a group kept in this simulator's memory; ids look like WhatsApp's ("120363…"). */
  createGroup(title: string, participants: string[]): Promise<{ id: string }> {
    this.#assertConnected();
    const id = `120363${String(this.#ctx.whatsappId).padStart(4, "0")}${String(Date.now()).slice(-6)}${
      String(this.groups.size + 1).padStart(4, "0")
    }`;
    this.groups.set(id, { title, participants: new Set(participants.map(digits)) });
    return Promise.resolve({ id });
  }

  groupParticipants(groupId: string): Promise<string[]> {
    this.#assertConnected();
    return Promise.resolve([...this.#group(groupId).participants]);
  }

  addGroupParticipants(groupId: string, participants: string[]): Promise<void> {
    this.#assertConnected();
    const group = this.#group(groupId);
    for (const p of participants) group.participants.add(digits(p));
    return Promise.resolve();
  }

  /** The address book (import of the phone's contacts). */
  phoneContacts(): Promise<PhoneContact[]> {
    return new Promise((resolve) => {
      this.#assertConnected();
      resolve([...this.phoneBook].map(([number, name]) => ({ number, name })));
    });
  }

  /** Every individual chat, named as the customer wrote or as the address book has it. */
  chatContacts(): Promise<PhoneContact[]> {
    return new Promise((resolve) => {
      this.#assertConnected();
      resolve([...this.chats].map(([number, name]) => ({ number, name: name || this.phoneBook.get(number) || "" })));
    });
  }

  /** Remembers an individual chat (a known name is kept when a later sighting has none). */
  #chat(number: string, name: string): void {
    if (!number) return;
    const known = this.chats.get(number);
    this.chats.delete(number);
    this.chats.set(number, name || known || "");
    if (this.chats.size > MAX_CHATS) this.chats.delete(this.chats.keys().next().value!);
  }

  #assertConnected(): void {
    if (!this.#connected) throw new AppError("ERR_WAPP_NOT_INITIALIZED", { status: 409, message: "Simulator is not connected" });
  }

  #group(groupId: string): { title: string; participants: Set<string> } {
    const group = this.groups.get(digits(groupId));
    if (!group) throw new AppError("ERR_NO_CONTACT_FOUND", { status: 404, message: `No group ${groupId} on this phone` });
    return group;
  }

  #open(): void {
    this.#qrcode = "";
    this.#connected = true;
    this.#ctx.emit({ type: "connected", number: simulatorNumber(this.#ctx.whatsappId) });
    // As a phone's contacts arrive after pairing (allowupserts imports them).
    const contacts = [...this.phoneBook].map(([number, name]) => ({ number, name }));
    if (contacts.length > 0) this.#ctx.emit({ type: "contacts", contacts });
    for (const message of this.#pending.splice(0)) this.#ctx.emit({ type: "message", message });
  }

  async #paired(): Promise<boolean> {
    const auth = await this.#ctx.kv.get<{ paired: boolean }>(
      simulatorAuthKey(this.#ctx.companyId, this.#ctx.whatsappId),
    );
    return auth.value?.paired === true;
  }

  #deliver(message: OutboundMessage, mediaType: MediaType): { providerId: string } {
    if (!this.#connected) throw new AppError("ERR_WAPP_NOT_INITIALIZED", { status: 409, message: "Simulator is not connected" });
    if (this.#failures > 0) {
      this.#failures--;
      throw new AppError("ERR_SENDING_WAPP_MSG", { status: 502, message: "Simulated send failure" });
    }
    const id = `SIMOUT${Date.now().toString(36).toUpperCase()}${(++this.#counter).toString(36).toUpperCase()}`;
    if (!message.isGroup) this.#chat(digits(message.to), "");
    this.outbox.push({
      id,
      to: message.to,
      isGroup: message.isGroup,
      body: message.body,
      mediaType,
      filename: message.media?.filename,
      ack: 1,
      timestamp: Date.now(),
      ...(message.list ? { list: message.list } : {}),
    });
    return { providerId: id };
  }

  #entry(providerId: string): OutboxEntry {
    const entry = this.outbox.find((e) => e.id === providerId);
    if (!entry) throw new AppError("ERR_FETCH_WAPP_MSG", { status: 404, message: `No sent message ${providerId}` });
    return entry;
  }

  #toMessage(input: SimulatorInbound): InboundMessage {
    const providerId = input.id ?? `SIMIN${crypto.randomUUID().replaceAll("-", "").slice(0, 20).toUpperCase()}`;
    const mediaType = input.mediaType ?? "chat";
    const media = input.mediaBase64
      ? {
        data: Uint8Array.from(atob(input.mediaBase64), (c) => c.charCodeAt(0)),
        mimetype: input.mimetype || (MIME[mediaType] ?? "application/octet-stream"),
        filename: input.filename || `${providerId}.${EXT[mediaType] ?? "bin"}`,
      }
      : undefined;
    const from = digits(input.isGroup ? input.groupId ?? input.from : input.from);
    return {
      providerId,
      from,
      name: input.isGroup ? input.groupName ?? from : input.name,
      body: input.body,
      mediaType,
      media,
      fromMe: input.fromMe ?? false,
      isGroup: input.isGroup ?? false,
      group: input.isGroup ? { id: from, name: input.groupName ?? from } : undefined,
      participant: input.isGroup ? { number: digits(input.from), name: input.name } : undefined,
      timestamp: Date.now(),
    };
  }
}

const MIME: Partial<Record<MediaType, string>> = {
  image: "image/jpeg",
  audio: "audio/ogg",
  video: "video/mp4",
  document: "application/pdf",
  application: "application/pdf",
};
const EXT: Partial<Record<MediaType, string>> = {
  image: "jpg",
  audio: "ogg",
  video: "mp4",
  document: "pdf",
  application: "pdf",
};
