/**
 * The Baileys adapter (@whiskeysockets/baileys 6.17.16): a WhatsApp Web socket paired by QR,
 * its auth kept in KV (baileys_auth.ts), its events mapped to ours (baileys_map.ts). The
 * socket comes from an injectable factory, so tests drive the adapter with a fake socket that
 * emits Baileys' own event shapes (the real network is unreachable here).
 *
 * Nothing missed across a disconnect: offline messages arrive in `messages.upsert` with type
 * "append" and history in `messaging-history.set`; both go through the same deduplicated
 * inbound path (history only back to the last message seen before the drop; that time is
 * kept in KV, so a restarted server replays what arrived while it was down).
 * Baileys cannot list contacts, so the adapter keeps a bounded phone book (phone_book.ts) of
 * what its contact, chat and history events deliver, for the contact import.
 *
 * A send with an idempotency key (campaigns) goes out under a message id derived from the key
 * (`baileysMessageId`) instead of a random one, so a resend after a crash repeats the same id
 * and WhatsApp treats it as the same message (the sender's id is the message's identity: a
 * repeat is dropped by the recipient's devices instead of shown twice).
 */
import { createHash } from "node:crypto";
import type { ChannelAdapter, InboundMessage, OutboundMessage, PhoneContact } from "../../domain/channel.ts";
import { AppError } from "../../domain/errors.ts";
import { baileysAuthPrefix, kvAuthState, type KvAuth } from "./baileys_auth.ts";
import { loadBaileys, LOGGED_OUT } from "./baileys_lib.ts";
import { ackOfReceipt, ackOfStatus, isLidJid, jidUser, mapMessage, toJid, type WaMessageLike } from "./baileys_map.ts";
import type { AdapterContext } from "./types.ts";
import { PhoneBook } from "./phone_book.ts";
import { log } from "../../actors/_runtime/log.ts";

/** The part of a Baileys socket the adapter uses (the real one and the tests' fake). */
export interface BaileysSocketLike {
  ev: {
    // deno-lint-ignore no-explicit-any -- Baileys' event map is typed per event; we read loosely
    on(event: string, listener: (arg: any) => void): unknown;
  };
  user?: { id: string } | null;
  // deno-lint-ignore no-explicit-any -- AnyMessageContent / MiscMessageGenerationOptions
  sendMessage(jid: string, content: any, options?: any): Promise<WaMessageLike | undefined>;
  onWhatsApp(...jids: string[]): Promise<Array<{ exists: boolean; jid: string }> | undefined>;
  profilePictureUrl(jid: string, type?: "image" | "preview"): Promise<string | undefined>;
  readMessages(keys: Array<{ remoteJid: string; id: string; fromMe?: boolean }>): Promise<void>;
  groupCreate(subject: string, participants: string[]): Promise<{ id: string }>;
  groupMetadata(jid: string): Promise<{ id: string; participants: BaileysParticipantLike[] }>;
  groupParticipantsUpdate(jid: string, participants: string[], action: "add" | "remove" | "promote" | "demote"): Promise<unknown>;
  logout(): Promise<void>;
  end(error: Error | undefined): void;
}

/** A group participant as Baileys reports it: `id` may be a LID, `phoneNumber` then has the number. */
export interface BaileysParticipantLike {
  id: string;
  phoneNumber?: string;
  jid?: string;
}

/**
 * The WhatsApp message id of a keyed send: Baileys' own shape ("3EB0" + 18 upper-case hex, as
 * its generateMessageIDV2 makes) from a SHA-256 of the key, so the same key always gives the
 * same id and different keys practically never collide.
 */
export function baileysMessageId(idempotencyKey: string): string {
  return "3EB0" + createHash("sha256").update(idempotencyKey).digest("hex").slice(0, 18).toUpperCase();
}

/** Builds a socket from an auth state (the real `makeWASocket`, or a fake). */
export type BaileysSocketFactory = (auth: KvAuth["state"]) => BaileysSocketLike | Promise<BaileysSocketLike>;

/** Downloads a message's media (real: Baileys' downloadMediaMessage). */
export type MediaDownloader = (msg: WaMessageLike, sock: BaileysSocketLike) => Promise<{ data: Uint8Array; mimetype: string; filename: string }>;

/** Baileys' logger interface, quiet except for errors (it logs every frame otherwise). */
const quietLogger = {
  level: "error",
  child() {
    return quietLogger;
  },
  trace() {},
  debug() {},
  info() {},
  warn() {},
  error(obj: unknown, msg?: string) {
    log.error(`baileys: ${msg ?? ""}`, { detail: typeof obj === "object" ? JSON.stringify(obj).slice(0, 300) : obj });
  },
};

/**
 * The real socket factory. `wsUrl` replaces WhatsApp's own address (Baileys' `waWebSocketUrl`):
 * test servers point it at loopback so no test ever reaches outside this machine.
 */
export const baileysSocket = (wsUrl?: string): BaileysSocketFactory => async (auth) =>
  (await loadBaileys()).default({
    auth,
    ...(wsUrl ? { waWebSocketUrl: wsUrl } : {}),
    printQRInTerminal: false,
    syncFullHistory: false,
    markOnlineOnConnect: false,
    // deno-lint-ignore no-explicit-any -- structurally a pino logger for the calls Baileys makes
    logger: quietLogger as any,
  }) as unknown as BaileysSocketLike;

const realDownload: MediaDownloader = async (msg, sock) => {
  const baileys = await loadBaileys();
  const data = await baileys.downloadMediaMessage(
    msg as Parameters<typeof baileys.downloadMediaMessage>[0],
    "buffer",
    {},
    // deno-lint-ignore no-explicit-any -- the real socket satisfies the download context
    { reuploadRequest: (sock as any).updateMediaMessage, logger: undefined as any },
  ) as Uint8Array;
  // deno-lint-ignore no-explicit-any -- read the mimetype from whichever media node is present
  const m: any = msg.message ?? {};
  const node = m.imageMessage ?? m.videoMessage ?? m.audioMessage ?? m.documentMessage ?? m.stickerMessage ?? {};
  const mimetype: string = node.mimetype ?? "application/octet-stream";
  const ext = mimetype.split("/")[1]?.split(";")[0] ?? "bin";
  return { data, mimetype, filename: node.fileName ?? `${msg.key.id}.${ext}` };
};

/** The newest message time seen is written to KV when it has moved this far. */
const SAVE_EVERY_MS = 10_000;
/** History replay after a restart starts this long before the saved time. */
const REPLAY_MARGIN_MS = 5 * 60_000;

/** Closes a socket for good, whatever state its handshake is in. */
function endSocket(sock: BaileysSocketLike): void {
  try {
    sock.end(undefined);
  } catch { /* already closed */ }
  // Baileys' end() drops its own 'error' listeners and then closes the WebSocket; closing one
  // still in its handshake makes `ws` emit an error on the next tick, which would be thrown
  // as uncaught with nobody listening. Absorb it: the session already knows it is closing.
  // deno-lint-ignore no-explicit-any -- the real socket's `ws` is Baileys' WebSocketClient
  (sock as any).ws?.on?.("error", () => {});
}

/** The Baileys adapter; see the module doc. */
export class BaileysAdapter implements ChannelAdapter {
  #ctx: AdapterContext;
  #factory: BaileysSocketFactory;
  #download: MediaDownloader;
  #sock?: BaileysSocketLike;
  #auth?: KvAuth;
  #open = false;
  /** Ids of messages this adapter sent: their echo in messages.upsert is not inbound. */
  #sent = new Set<string>();
  /** Newest message time seen, to bound history replay after a reconnect or a restart. */
  #lastSeen = 0;
  /** The `#lastSeen` last written to KV. */
  #lastSaved = 0;
  #generation = 0;
  /** Contacts and chats the socket reported (kept across reconnects, dropped on logout). */
  #book = new PhoneBook();

  constructor(ctx: AdapterContext, factory: BaileysSocketFactory = baileysSocket(), download: MediaDownloader = realDownload) {
    this.#ctx = ctx;
    this.#factory = factory;
    this.#download = download;
  }

  /** The live socket (tests). */
  get socket(): BaileysSocketLike | undefined {
    return this.#sock;
  }

  async start(): Promise<void> {
    this.#close();
    this.#auth = await kvAuthState(this.#ctx.kv, this.#ctx.companyId, this.#ctx.whatsappId);
    if (this.#lastSeen === 0) {
      // After a restart: replay history back to what the last process saw, less a margin
      // for messages it saw but had not stored yet (replayed ones are deduplicated).
      const saved = (await this.#ctx.kv.get<number>(this.#lastSeenKey())).value ?? 0;
      this.#lastSeen = this.#lastSaved = saved > 0 ? saved - REPLAY_MARGIN_MS : 0;
    }
    const generation = ++this.#generation;
    const sock = await this.#factory(this.#auth.state);
    if (generation !== this.#generation) {
      // stop() or another start() came while the socket was being made: this one is stale.
      endSocket(sock);
      return;
    }
    this.#sock = sock;
    const live = () => generation === this.#generation;
    sock.ev.on("creds.update", (update) => {
      if (!live() || !this.#auth) return;
      Object.assign(this.#auth.state.creds, update);
      this.#auth.saveCreds().catch((e) => log.error("Saving Baileys creds failed", { error: e }));
      if (update?.me && !this.#open) this.#ctx.emit({ type: "pairing" });
    });
    sock.ev.on("connection.update", (update) => live() && this.#onConnection(update));
    sock.ev.on("messages.upsert", (upsert) => {
      if (!live()) return;
      for (const msg of upsert.messages ?? []) this.#onMessage(msg);
    });
    sock.ev.on("messaging-history.set", (history) => {
      if (!live() || !this.#lastSeen) return;
      for (const msg of history.messages ?? []) {
        const ts = Number(msg.messageTimestamp ?? 0) * 1000;
        if (ts >= this.#lastSeen) this.#onMessage(msg);
      }
    });
    sock.ev.on("messages.update", (updates) => {
      if (!live()) return;
      for (const u of updates ?? []) {
        const ack = ackOfStatus(u.update?.status);
        if (ack !== null && u.key?.id && u.key.fromMe) this.#ctx.emit({ type: "ack", providerId: u.key.id, ack });
        if (u.update?.message) this.#onMessage({ key: u.key, message: u.update.message });
      }
    });
    sock.ev.on("message-receipt.update", (receipts) => {
      if (!live()) return;
      for (const r of receipts ?? []) {
        const ack = ackOfReceipt(r.receipt ?? {});
        if (ack !== null && r.key?.id) this.#ctx.emit({ type: "ack", providerId: r.key.id, ack });
      }
    });
    sock.ev.on("chats.phoneNumberShare", (share) => {
      if (live() && isLidJid(share?.lid) && share?.jid) {
        this.#ctx.emit({ type: "lid", lid: jidUser(share.lid), number: jidUser(share.jid) });
      }
    });
    sock.ev.on("lid-mapping.update", (mapping) => {
      if (!live()) return;
      for (const m of Array.isArray(mapping) ? mapping : [mapping]) {
        if (m?.lid && m?.pn) this.#ctx.emit({ type: "lid", lid: jidUser(m.lid), number: jidUser(m.pn) });
      }
    });
    this.#listenPhoneBook(sock, live);
  }

  stop(): Promise<void> {
    this.#close();
    return Promise.resolve();
  }

  async logout(): Promise<void> {
    const sock = this.#sock;
    this.#close();
    await sock?.logout().catch(() => {});
    const auth = this.#auth ?? await kvAuthState(this.#ctx.kv, this.#ctx.companyId, this.#ctx.whatsappId);
    await auth.clear();
    this.#auth = undefined;
    this.#book.clear();
  }

  /** The address book as the socket reported it (contacts with a name). */
  phoneContacts(): Promise<PhoneContact[]> {
    return new Promise((resolve) => {
      this.#ready();
      resolve(this.#book.phoneContacts());
    });
  }

  /** The individual chats the socket reported (chats.upsert/update, history). */
  chatContacts(): Promise<PhoneContact[]> {
    return new Promise((resolve) => {
      this.#ready();
      resolve(this.#book.chatContacts());
    });
  }

  sendText(message: OutboundMessage): Promise<{ providerId: string }> {
    const quoted = message.quotedProviderId
      ? { quoted: { key: { id: message.quotedProviderId, remoteJid: toJid(message.to, message.isGroup) }, message: {} } }
      : undefined;
    return this.#send(message, { text: message.body }, quoted);
  }

  async sendMedia(message: OutboundMessage): Promise<{ providerId: string }> {
    const media = message.media;
    if (!media) return await this.sendText(message);
    const data = await Deno.readFile(media.path);
    const kind = media.mediaType === "image" ? "image" : media.mediaType === "video" ? "video" : media.mediaType === "audio" ? "audio" : "document";
    const content = kind === "document"
      ? { document: data, mimetype: media.mimetype, fileName: media.filename, caption: message.body }
      : kind === "audio"
      ? { audio: data, mimetype: media.mimetype, ptt: true }
      : { [kind]: data, mimetype: media.mimetype, caption: message.body };
    return await this.#send(message, content);
  }

  async edit(to: string, providerId: string, body: string): Promise<void> {
    const sock = this.#ready();
    const jid = toJid(to, to.length > 15);
    await sock.sendMessage(jid, { text: body, edit: { remoteJid: jid, id: providerId, fromMe: true } });
  }

  async delete(to: string, providerId: string, fromMe: boolean): Promise<void> {
    const sock = this.#ready();
    const jid = toJid(to, to.length > 15);
    await sock.sendMessage(jid, { delete: { remoteJid: jid, id: providerId, fromMe } });
  }

  async markRead(to: string, providerIds: string[]): Promise<void> {
    const sock = this.#ready();
    const jid = toJid(to, to.length > 15);
    await sock.readMessages(providerIds.map((id) => ({ remoteJid: jid, id, fromMe: false })));
  }

  async checkNumber(number: string): Promise<{ exists: boolean; jid?: string }> {
    const sock = this.#ready();
    const [result] = (await sock.onWhatsApp(toJid(number, false))) ?? [];
    return result?.exists ? { exists: true, jid: result.jid } : { exists: false };
  }

  async profilePicture(number: string): Promise<string | null> {
    const sock = this.#ready();
    try {
      return (await sock.profilePictureUrl(toJid(number, number.length > 15), "image")) ?? null;
    } catch {
      return null;
    }
  }

  async createGroup(title: string, participants: string[]): Promise<{ id: string }> {
    const sock = this.#ready();
    const meta = await sock.groupCreate(title, participants.map((p) => toJid(p, false)));
    return { id: jidUser(meta.id) };
  }

  async groupParticipants(groupId: string): Promise<string[]> {
    const sock = this.#ready();
    const meta = await sock.groupMetadata(toJid(groupId, true));
    return meta.participants.map((p) => jidUser(p.phoneNumber ?? (isLidJid(p.id) ? p.jid ?? p.id : p.id)));
  }

  async addGroupParticipants(groupId: string, participants: string[]): Promise<void> {
    const sock = this.#ready();
    await sock.groupParticipantsUpdate(toJid(groupId, true), participants.map((p) => toJid(p, false)), "add");
  }

  async #send(message: OutboundMessage, content: unknown, options?: Record<string, unknown>): Promise<{ providerId: string }> {
    const sock = this.#ready();
    const keyed = message.idempotencyKey === undefined ? options : { ...options, messageId: baileysMessageId(message.idempotencyKey) };
    const sent = await sock.sendMessage(toJid(message.to, message.isGroup), content, keyed);
    const id = sent?.key.id;
    if (!id) throw new AppError("ERR_SENDING_WAPP_MSG", { status: 502, message: "WhatsApp gave no message id" });
    this.#sent.add(id);
    if (this.#sent.size > 5000) this.#sent.delete(this.#sent.values().next().value!);
    return { providerId: id };
  }

  /**
   * Feeds the phone book from the socket's contact, chat and LID events; the people a
   * contacts.upsert or a history sync names are also reported (`contacts`, for allowupserts).
   */
  #listenPhoneBook(sock: BaileysSocketLike, live: () => boolean): void {
    const book = this.#book;
    const upserted = (list: Parameters<PhoneBook["addContacts"]>[0]) => {
      book.addContacts(list);
      const contacts = book.namedAmong(list);
      if (contacts.length > 0) this.#ctx.emit({ type: "contacts", contacts });
    };
    sock.ev.on("contacts.upsert", (contacts) => live() && upserted(contacts));
    sock.ev.on("contacts.update", (contacts) => live() && book.addContacts(contacts));
    sock.ev.on("chats.upsert", (chats) => live() && book.addChats(chats));
    sock.ev.on("chats.update", (chats) => live() && book.addChats(chats));
    sock.ev.on("messaging-history.set", (history) => {
      if (!live()) return;
      upserted(history?.contacts);
      book.addChats(history?.chats);
    });
    sock.ev.on("chats.phoneNumberShare", (share) => {
      if (live() && isLidJid(share?.lid) && share?.jid) book.linkLid(jidUser(share.lid), jidUser(share.jid));
    });
    sock.ev.on("lid-mapping.update", (mapping) => {
      if (!live()) return;
      for (const m of Array.isArray(mapping) ? mapping : [mapping]) {
        if (m?.lid && m?.pn) book.linkLid(jidUser(m.lid), jidUser(m.pn));
      }
    });
  }

  #ready(): BaileysSocketLike {
    if (!this.#sock || !this.#open) {
      throw new AppError("ERR_WAPP_NOT_INITIALIZED", { status: 409, message: `Connection ${this.#ctx.whatsappId} is not connected` });
    }
    return this.#sock;
  }

  #close(): void {
    this.#generation++;
    this.#open = false;
    const sock = this.#sock;
    this.#sock = undefined;
    if (sock) endSocket(sock);
  }

  // deno-lint-ignore no-explicit-any -- Partial<ConnectionState>, read loosely
  #onConnection(update: any): void {
    if (update.qr) this.#ctx.emit({ type: "qr", qrcode: update.qr });
    if (update.connection === "open") {
      this.#open = true;
      const number = this.#sock?.user?.id ? jidUser(this.#sock.user.id) : "";
      this.#ctx.emit({ type: "connected", number });
    }
    if (update.connection === "close") {
      this.#open = false;
      const code = update.lastDisconnect?.error?.output?.statusCode;
      const loggedOut = code === LOGGED_OUT;
      if (loggedOut) this.#auth?.clear().catch(() => {});
      this.#ctx.emit({ type: "disconnected", reason: String(update.lastDisconnect?.error?.message ?? code ?? "closed"), loggedOut });
    }
  }

  /** Where `#lastSeen` survives a restart: under the auth prefix, so logout clears it. */
  #lastSeenKey(): Deno.KvKey {
    return [...baileysAuthPrefix(this.#ctx.companyId, this.#ctx.whatsappId), "lastSeen"];
  }

  #onMessage(msg: WaMessageLike): void {
    if (msg.key?.id && msg.key.fromMe && this.#sent.has(msg.key.id)) return;
    const { events, needsMedia } = mapMessage(msg);
    const ts = Number(typeof msg.messageTimestamp === "number" ? msg.messageTimestamp : 0) * 1000;
    if (ts > this.#lastSeen) this.#lastSeen = ts;
    if (this.#lastSeen - this.#lastSaved >= SAVE_EVERY_MS) {
      this.#lastSaved = this.#lastSeen;
      this.#ctx.kv.set(this.#lastSeenKey(), this.#lastSeen).catch(() => {});
    }
    for (const event of events) {
      if (event.type === "message" && needsMedia && this.#sock) {
        this.#withMedia(msg, event.message).then((message) => this.#ctx.emit({ type: "message", message }));
      } else {
        this.#ctx.emit(event);
      }
    }
  }

  async #withMedia(msg: WaMessageLike, message: InboundMessage): Promise<InboundMessage> {
    try {
      return { ...message, media: await this.#download(msg, this.#sock!) };
    } catch (error) {
      log.warn(`Media of message ${message.providerId} could not be downloaded:`, { error: String(error) });
      return message;
    }
  }
}
