/**
 * A fake Baileys socket for adapter tests: an EventEmitter `ev` through which the test emits
 * Baileys' own event shapes, a record of every `sendMessage` call, and groups kept in memory.
 */
import { EventEmitter } from "node:events";
import type { BaileysSocketFactory, BaileysSocketLike } from "../../server/channels/baileys.ts";
import type { WaMessageLike } from "../../server/channels/baileys_map.ts";

export class FakeSocket implements BaileysSocketLike {
  readonly ev = new EventEmitter();
  user: { id: string } | null = null;
  readonly sent: Array<{ jid: string; content: unknown; options?: unknown; id: string }> = [];
  readonly read: unknown[] = [];
  /** Groups created through `groupCreate`: jid → subject and participant jids. */
  readonly groups = new Map<string, { subject: string; participants: string[] }>();
  ended = false;
  loggedOut = false;
  #counter = 0;

  constructor(readonly auth: Parameters<BaileysSocketFactory>[0]) {}

  sendMessage(jid: string, content: unknown, options?: unknown): Promise<WaMessageLike> {
    // As the real socket: a `messageId` option is the message's id, else a generated one.
    const chosen = (options as { messageId?: string } | undefined)?.messageId;
    const id = chosen ?? `3EB0FAKE${++this.#counter}`;
    this.sent.push({ jid, content, options, id });
    return Promise.resolve({ key: { remoteJid: jid, fromMe: true, id }, message: {} });
  }
  onWhatsApp(...jids: string[]) {
    return Promise.resolve(jids.map((jid) => ({ exists: !jid.startsWith("000"), jid })));
  }
  profilePictureUrl(jid: string) {
    return Promise.resolve(`https://pps.example/${jid}.jpg`);
  }
  readMessages(keys: unknown[]) {
    this.read.push(...keys);
    return Promise.resolve();
  }
  groupCreate(subject: string, participants: string[]) {
    const id = `120363${String(++this.#counter).padStart(12, "0")}@g.us`;
    this.groups.set(id, { subject, participants: [...participants] });
    return Promise.resolve({ id });
  }
  groupMetadata(jid: string) {
    const group = this.groups.get(jid);
    if (!group) return Promise.reject(new Error("item-not-found"));
    return Promise.resolve({ id: jid, participants: group.participants.map((id) => ({ id })) });
  }
  groupParticipantsUpdate(jid: string, participants: string[], action: string) {
    const group = this.groups.get(jid);
    if (!group) return Promise.reject(new Error("item-not-found"));
    if (action === "add") group.participants.push(...participants.filter((p) => !group.participants.includes(p)));
    return Promise.resolve(participants.map((jid) => ({ status: "200", jid })));
  }
  logout() {
    this.loggedOut = true;
    return Promise.resolve();
  }
  end() {
    this.ended = true;
  }

  /** Emits `connection.update` { connection: "open" } as the phone number `number`. */
  open(number: string): void {
    this.user = { id: `${number}:7@s.whatsapp.net` };
    this.ev.emit("connection.update", { connection: "open" });
  }

  /** Emits one `messages.upsert` of type `type`. */
  upsert(messages: WaMessageLike[], type: "notify" | "append" = "notify"): void {
    this.ev.emit("messages.upsert", { messages, type });
  }
}

/** A factory that remembers every socket it built. */
export function fakeFactory(): { factory: BaileysSocketFactory; sockets: FakeSocket[] } {
  const sockets: FakeSocket[] = [];
  return {
    sockets,
    factory: (auth) => {
      const sock = new FakeSocket(auth);
      sockets.push(sock);
      return sock;
    },
  };
}
