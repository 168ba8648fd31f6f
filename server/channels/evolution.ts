/**
 * The Evolution API v2 adapter (the spec's second engine, `statusEvo`/`qrcodeEvo`): an HTTP
 * client for one instance (`balcao-{companyId}-{whatsappId}`) — create, connect/QR, state,
 * send text/media, edit, delete, read, number check, profile picture, logout — plus
 * `handleWebhook` for the events Evolution posts to POST /webhooks/evolution/{whatsappId}.
 * Evolution forwards Baileys' own message shapes, so messages map with baileys_map.ts.
 * After a reconnect it searches the messages that arrived while down (`chat/findMessages`)
 * and feeds them through the same deduplicated inbound path. The phone's contacts and chats
 * (contact import) come from `chat/findContacts` and `chat/findChats`.
 */
import type { ChannelAdapter, OutboundMessage, PhoneContact } from "../../domain/channel.ts";
import { AppError } from "../../domain/errors.ts";
import { ackOfStatus, jidUser, mapMessage, toJid, type WaMessageLike } from "./baileys_map.ts";
import type { AdapterContext } from "./types.ts";
import { signBody } from "./webhook.ts";
import { bestName, individualNumber, uniqueContacts } from "./phone_book.ts";

/**
 * The secret in the URL Evolution posts a connection's events to (issue #38): derived from
 * the server's own secret, so it is neither the connection's API token (whoever may send
 * through the external API must not be able to forge inbound messages) nor stored or shown
 * anywhere; the adapter registers it at each start.
 */
export async function evolutionWebhookSecret(serverSecret: string, companyId: number, whatsappId: number): Promise<string> {
  return (await signBody(serverSecret, `evolution-webhook:${companyId}:${whatsappId}`)).slice("sha256=".length);
}

/** Where the Evolution server is and how it reaches us back. */
export interface EvolutionConfig {
  baseUrl: string;
  apiKey: string;
  /** Our public base URL, for the webhook Evolution calls. */
  webhookBase: string;
}

/** A record of `chat/findContacts` or `chat/findChats` (Evolution's own row, loosely read). */
interface EvolutionPerson {
  remoteJid?: string | null;
  pushName?: string | null;
  name?: string | null;
  /** The phone-number JID of a LID chat, when Evolution knows it (newer versions). */
  remoteJidAlt?: string | null;
  lastMessage?: { key?: { remoteJidAlt?: string | null; senderPn?: string | null } } | null;
}

/** A person of Evolution's lists as a phone contact (number "" for groups and unknown LIDs). */
function personOf(row: EvolutionPerson): PhoneContact {
  const pn = row.remoteJidAlt ?? row.lastMessage?.key?.remoteJidAlt ?? row.lastMessage?.key?.senderPn;
  const jid = row.remoteJid?.endsWith("@lid") && pn ? pn : row.remoteJid;
  return { number: individualNumber(jid), name: bestName(row.name, row.pushName) };
}

/** Evolution's textual message statuses → our ack scale (Baileys' status numbers). */
const STATUS: Record<string, number> = { ERROR: 0, PENDING: 1, SERVER_ACK: 2, DELIVERY_ACK: 3, READ: 4, PLAYED: 5 };

/** The Evolution adapter; see the module doc. */
export class EvolutionAdapter implements ChannelAdapter {
  #ctx: AdapterContext;
  #config: EvolutionConfig;
  #webhookSecret: () => Promise<string>;
  #open = false;
  #lastSeen = 0;
  readonly instance: string;

  /** `webhookSecret` gives the connection's inbound secret (evolutionWebhookSecret). */
  constructor(ctx: AdapterContext, config: EvolutionConfig, webhookSecret: () => Promise<string>) {
    this.#ctx = ctx;
    this.#config = config;
    this.#webhookSecret = webhookSecret;
    this.instance = `balcao-${ctx.companyId}-${ctx.whatsappId}`;
  }

  async start(): Promise<void> {
    this.#open = false;
    const secret = await this.#webhookSecret();
    const url = `${this.#config.webhookBase}/webhooks/evolution/${this.#ctx.whatsappId}?token=${encodeURIComponent(secret)}`;
    const webhook = { url, byEvents: false, base64: true, events: ["QRCODE_UPDATED", "CONNECTION_UPDATE", "MESSAGES_UPSERT", "MESSAGES_UPDATE"] };
    const created = await this.#call("POST", "/instance/create", {
      instanceName: this.instance,
      qrcode: true,
      integration: "WHATSAPP-BAILEYS",
      webhook,
    }, [403, 409]);
    // The instance was there already (a restart, or one made before #38 with the API token in
    // its webhook URL): point its webhook at the current URL.
    if (created === undefined) await this.#call("POST", `/webhook/set/${this.instance}`, { webhook: { enabled: true, ...webhook } });
    const state = await this.#call<{ instance?: { state?: string } }>("GET", `/instance/connectionState/${this.instance}`);
    if (state?.instance?.state === "open") return await this.#opened();
    const connect = await this.#call<{ code?: string; base64?: string }>("GET", `/instance/connect/${this.instance}`);
    if (connect?.code) this.#ctx.emit({ type: "qr", qrcode: connect.code });
  }

  stop(): Promise<void> {
    this.#open = false;
    return Promise.resolve();
  }

  async logout(): Promise<void> {
    this.#open = false;
    await this.#call("DELETE", `/instance/logout/${this.instance}`, undefined, [400, 404]);
  }

  /** One event Evolution posted to our webhook. */
  async handleWebhook(payload: { event?: string; data?: unknown }): Promise<void> {
    const event = String(payload.event ?? "").toLowerCase().replaceAll("_", ".");
    // deno-lint-ignore no-explicit-any -- Evolution's payloads are loosely shaped JSON
    const data = payload.data as any;
    switch (event) {
      case "qrcode.updated":
        if (data?.qrcode?.code) this.#ctx.emit({ type: "qr", qrcode: data.qrcode.code });
        return;
      case "connection.update":
        if (data?.state === "open") await this.#opened(data?.wuid);
        else if (data?.state === "close") {
          this.#open = false;
          const loggedOut = data?.statusReason === 401;
          this.#ctx.emit({ type: "disconnected", reason: String(data?.statusReason ?? "closed"), loggedOut });
        }
        return;
      case "messages.upsert":
        for (const msg of Array.isArray(data) ? data : [data]) this.#onMessage(msg);
        return;
      case "messages.update":
        for (const u of Array.isArray(data) ? data : [data]) {
          const id = u?.keyId ?? u?.key?.id;
          const ack = ackOfStatus(typeof u?.status === "number" ? u.status : STATUS[String(u?.status)]);
          if (id && ack !== null) this.#ctx.emit({ type: "ack", providerId: id, ack });
        }
        return;
    }
  }

  async sendText(message: OutboundMessage): Promise<{ providerId: string }> {
    const sent = await this.#send("/message/sendText", {
      number: message.to,
      text: message.body,
      quoted: message.quotedProviderId ? { key: { id: message.quotedProviderId } } : undefined,
    });
    return sent;
  }

  async sendMedia(message: OutboundMessage): Promise<{ providerId: string }> {
    const media = message.media;
    if (!media) return await this.sendText(message);
    const bytes = await Deno.readFile(media.path);
    const type = media.mediaType === "image" || media.mediaType === "video" || media.mediaType === "audio" ? media.mediaType : "document";
    return await this.#send("/message/sendMedia", {
      number: message.to,
      mediatype: type,
      mimetype: media.mimetype,
      caption: message.body,
      fileName: media.filename,
      media: btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join("")),
    });
  }

  async edit(to: string, providerId: string, body: string): Promise<void> {
    this.#ready();
    await this.#call("PUT", `/chat/updateMessage/${this.instance}`, { number: to, key: { id: providerId, remoteJid: toJid(to, to.length > 15), fromMe: true }, text: body });
  }

  async delete(to: string, providerId: string, fromMe: boolean): Promise<void> {
    this.#ready();
    await this.#call("DELETE", `/chat/deleteMessageForEveryone/${this.instance}`, { id: providerId, remoteJid: toJid(to, to.length > 15), fromMe });
  }

  async markRead(to: string, providerIds: string[]): Promise<void> {
    this.#ready();
    await this.#call("POST", `/chat/markMessageAsRead/${this.instance}`, {
      readMessages: providerIds.map((id) => ({ remoteJid: toJid(to, to.length > 15), fromMe: false, id })),
    });
  }

  async checkNumber(number: string): Promise<{ exists: boolean; jid?: string }> {
    this.#ready();
    const result = await this.#call<Array<{ exists: boolean; jid: string }>>("POST", `/chat/whatsappNumbers/${this.instance}`, { numbers: [number] });
    const first = result?.[0];
    return first?.exists ? { exists: true, jid: first.jid } : { exists: false };
  }

  async profilePicture(number: string): Promise<string | null> {
    this.#ready();
    const result = await this.#call<{ profilePictureUrl?: string | null }>("POST", `/chat/fetchProfilePictureUrl/${this.instance}`, { number }, [400, 404]);
    return result?.profilePictureUrl ?? null;
  }

  /** The instance's contacts (`POST /chat/findContacts`), persons only. */
  async phoneContacts(): Promise<PhoneContact[]> {
    return await this.#people("findContacts");
  }

  /** The instance's individual chats (`POST /chat/findChats`). */
  async chatContacts(): Promise<PhoneContact[]> {
    return await this.#people("findChats");
  }

  /** Creates a group (`POST /group/create`); its id as digits. */
  async createGroup(title: string, participants: string[]): Promise<{ id: string }> {
    this.#ready();
    const made = await this.#call<{ id?: string; gid?: string }>("POST", `/group/create/${this.instance}`, { subject: title, participants });
    const jid = made?.id ?? made?.gid;
    if (!jid) throw new AppError("ERR_SENDING_WAPP_MSG", { status: 502, message: "Evolution gave no group id" });
    return { id: jidUser(jid) };
  }

  /** The group's participants (`GET /group/participants`), as numbers. */
  async groupParticipants(groupId: string): Promise<string[]> {
    this.#ready();
    const found = await this.#call<{ participants?: Array<{ id: string; phoneNumber?: string; jid?: string }> }>(
      "GET",
      `/group/participants/${this.instance}?groupJid=${encodeURIComponent(toJid(groupId, true))}`,
    );
    return (found?.participants ?? []).map((p) => jidUser(p.phoneNumber ?? (p.id.endsWith("@lid") ? p.jid ?? p.id : p.id)));
  }

  /** Adds numbers to the group (`POST /group/updateParticipant`, action add). */
  async addGroupParticipants(groupId: string, participants: string[]): Promise<void> {
    this.#ready();
    const groupJid = toJid(groupId, true);
    await this.#call("POST", `/group/updateParticipant/${this.instance}?groupJid=${encodeURIComponent(groupJid)}`, {
      groupJid,
      action: "add",
      participants,
    });
  }

  async #people(action: "findContacts" | "findChats"): Promise<PhoneContact[]> {
    this.#ready();
    const rows = await this.#call<EvolutionPerson[] | { records?: EvolutionPerson[] }>("POST", `/chat/${action}/${this.instance}`, { where: {} });
    const list = Array.isArray(rows) ? rows : rows?.records ?? [];
    return uniqueContacts(list.map(personOf));
  }

  async #opened(wuid?: string): Promise<void> {
    const wasOpen = this.#open;
    this.#open = true;
    this.#ctx.emit({ type: "connected", number: wuid ? jidUser(wuid) : this.#ctx.record.number });
    if (!wasOpen && this.#lastSeen > 0) await this.#catchUp();
  }

  /** Feeds the messages that arrived while the session was down through the inbound path. */
  async #catchUp(): Promise<void> {
    const since = Math.floor(this.#lastSeen / 1000);
    const found = await this.#call<{ messages?: { records?: WaMessageLike[] } } | WaMessageLike[]>(
      "POST",
      `/chat/findMessages/${this.instance}`,
      { where: { messageTimestamp: { gte: since } }, page: 1, offset: 500 },
      [400, 404],
    ).catch(() => undefined);
    const records = Array.isArray(found) ? found : found?.messages?.records ?? [];
    for (const msg of records) {
      if (Number(msg.messageTimestamp ?? 0) >= since) this.#onMessage(msg);
    }
  }

  // deno-lint-ignore no-explicit-any -- Evolution message JSON (Baileys shape plus base64)
  #onMessage(msg: any): void {
    if (!msg?.key) return;
    const ts = Number(msg.messageTimestamp ?? 0) * 1000;
    if (ts > this.#lastSeen) this.#lastSeen = ts;
    const { events } = mapMessage(msg);
    for (const event of events) {
      if (event.type === "message" && typeof msg.message?.base64 === "string") {
        const data = Uint8Array.from(atob(msg.message.base64), (c) => c.charCodeAt(0));
        const node = msg.message.imageMessage ?? msg.message.audioMessage ?? msg.message.videoMessage ?? msg.message.documentMessage ?? {};
        const mimetype = node.mimetype ?? "application/octet-stream";
        event.message.media = { data, mimetype, filename: node.fileName ?? `${event.message.providerId}.${mimetype.split("/")[1]?.split(";")[0] ?? "bin"}` };
      }
      this.#ctx.emit(event);
    }
  }

  async #send(path: string, body: unknown): Promise<{ providerId: string }> {
    this.#ready();
    const sent = await this.#call<{ key?: { id?: string } }>("POST", `${path}/${this.instance}`, body);
    const id = sent?.key?.id;
    if (!id) throw new AppError("ERR_SENDING_WAPP_MSG", { status: 502, message: "Evolution gave no message id" });
    return { providerId: id };
  }

  #ready(): void {
    if (!this.#open) {
      throw new AppError("ERR_WAPP_NOT_INITIALIZED", { status: 409, message: `Connection ${this.#ctx.whatsappId} is not connected` });
    }
  }

  async #call<T = unknown>(method: string, path: string, body?: unknown, tolerated: number[] = []): Promise<T | undefined> {
    const response = await fetch(this.#config.baseUrl.replace(/\/$/, "") + path, {
      method,
      headers: { apikey: this.#config.apiKey, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await response.text();
    if (!response.ok) {
      if (tolerated.includes(response.status)) return undefined;
      throw new AppError("ERR_SENDING_WAPP_MSG", { status: 502, message: `Evolution ${method} ${path} answered ${response.status}: ${text.slice(0, 200)}` });
    }
    return text ? JSON.parse(text) as T : undefined;
  }
}
