/**
 * Pure mapping of Baileys' message shapes to our adapter events: text, extended text, image,
 * audio (ptt too), video, document, sticker, location, contact card and contacts array,
 * edits and deletes (protocolMessage), group messages with their participant. Reactions are
 * ignored. A LID is never used as a number: a sender known only by LID gets `from: ""` with
 * `lid` set, and when Baileys gives the phone number alongside (key.senderPn /
 * participantPn) a `lid` event links the two.
 */
import type { AdapterEvent, InboundMessage, MediaType } from "../../domain/channel.ts";

/** The parts of a Baileys `WAMessage` we read (loosely typed: shapes vary across versions). */
export interface WaMessageLike {
  key: {
    remoteJid?: string | null;
    fromMe?: boolean | null;
    id?: string | null;
    participant?: string | null;
    senderPn?: string | null;
    participantPn?: string | null;
    senderLid?: string | null;
    participantLid?: string | null;
  };
  // deno-lint-ignore no-explicit-any -- proto.IMessage is a deep optional tree; read defensively
  message?: any;
  messageTimestamp?: number | { toNumber(): number } | null;
  pushName?: string | null;
}

/** The user part of a JID, without device suffix: "5511…:3@s.whatsapp.net" → "5511…". */
export function jidUser(jid: string): string {
  return jid.split("@")[0].split(":")[0];
}

export const isLidJid = (jid: string | null | undefined) => !!jid && jid.endsWith("@lid");
export const isGroupJid = (jid: string | null | undefined) => !!jid && jid.endsWith("@g.us");

/** A phone number as a JID for sending. */
export function toJid(number: string, isGroup: boolean): string {
  if (number.includes("@")) return number;
  return `${number.replace(/\D/g, "")}@${isGroup ? "g.us" : "s.whatsapp.net"}`;
}

/** Unwraps the containers WhatsApp puts around a message body. */
// deno-lint-ignore no-explicit-any -- see WaMessageLike.message
export function unwrap(message: any): any {
  let m = message;
  for (let i = 0; i < 5 && m; i++) {
    const inner = m.ephemeralMessage?.message ?? m.viewOnceMessage?.message ??
      m.viewOnceMessageV2?.message ?? m.viewOnceMessageV2Extension?.message ??
      m.documentWithCaptionMessage?.message ?? m.editedMessage?.message;
    if (!inner) break;
    m = inner;
  }
  return m;
}

function timestampOf(raw: WaMessageLike["messageTimestamp"]): number {
  if (raw === null || raw === undefined) return Date.now();
  const seconds = typeof raw === "number" ? raw : raw.toNumber();
  return seconds * 1000;
}

/** The body and type of a message's content; null when we do not store it (reactions…). */
// deno-lint-ignore no-explicit-any -- see WaMessageLike.message
export function contentOf(m: any): { body: string; mediaType: MediaType; quoted?: string; media?: true } | null {
  if (!m) return null;
  if (typeof m.conversation === "string") return { body: m.conversation, mediaType: "chat" };
  if (m.extendedTextMessage) {
    return {
      body: m.extendedTextMessage.text ?? "",
      mediaType: "chat",
      quoted: m.extendedTextMessage.contextInfo?.stanzaId ?? undefined,
    };
  }
  const quotedOf = (x: { contextInfo?: { stanzaId?: string } }) => x.contextInfo?.stanzaId ?? undefined;
  if (m.imageMessage) return { body: m.imageMessage.caption ?? "", mediaType: "image", quoted: quotedOf(m.imageMessage), media: true };
  if (m.videoMessage) return { body: m.videoMessage.caption ?? "", mediaType: "video", quoted: quotedOf(m.videoMessage), media: true };
  if (m.audioMessage) return { body: "", mediaType: "audio", quoted: quotedOf(m.audioMessage), media: true };
  if (m.documentMessage) {
    return {
      body: m.documentMessage.caption || m.documentMessage.fileName || m.documentMessage.title || "",
      mediaType: "document",
      media: true,
    };
  }
  if (m.stickerMessage) return { body: "", mediaType: "sticker", media: true };
  if (m.locationMessage || m.liveLocationMessage) {
    const loc = m.locationMessage ?? m.liveLocationMessage;
    const url = `https://maps.google.com/maps?q=${loc.degreesLatitude}%2C${loc.degreesLongitude}&z=17&hl=pt-BR`;
    const label = [loc.name, loc.address].filter(Boolean).join(" - ");
    return { body: label ? `${url}|${label}` : url, mediaType: "locationMessage" };
  }
  if (m.contactMessage) return { body: m.contactMessage.vcard ?? "", mediaType: "contactMessage" };
  if (m.contactsArrayMessage) {
    const cards = (m.contactsArrayMessage.contacts ?? []) as Array<{ vcard?: string }>;
    return { body: cards.map((c) => c.vcard ?? "").join("\n"), mediaType: "contactsArrayMessage" };
  }
  if (m.buttonsResponseMessage) return { body: m.buttonsResponseMessage.selectedDisplayText ?? "", mediaType: "chat" };
  if (m.listResponseMessage) return { body: m.listResponseMessage.title ?? "", mediaType: "chat" };
  return null;
}

/** protocolMessage types we act on (proto.Message.ProtocolMessage.Type). */
const REVOKE = 0;
const MESSAGE_EDIT = 14;

/**
 * The adapter events of one upserted message: a `lid` link when the pair is revealed, then
 * the message itself, or an edit/delete. `mediaType`s with media get `media` filled later by
 * the adapter (download is I/O).
 */
export function mapMessage(msg: WaMessageLike): { events: AdapterEvent[]; needsMedia: boolean } {
  const events: AdapterEvent[] = [];
  const remoteJid = msg.key.remoteJid ?? "";
  if (!remoteJid || remoteJid === "status@broadcast" || remoteJid.endsWith("@newsletter")) {
    return { events, needsMedia: false };
  }
  const isGroup = isGroupJid(remoteJid);
  const link = (lidJid: string | null | undefined, pnJid: string | null | undefined) => {
    if (isLidJid(lidJid) && pnJid && !isLidJid(pnJid)) {
      events.push({ type: "lid", lid: jidUser(lidJid!), number: jidUser(pnJid) });
    }
  };
  // The sender: in a chat the remote JID, in a group the participant.
  let from = "";
  let lid: string | undefined;
  let participant: InboundMessage["participant"];
  if (isGroup) {
    const p = msg.key.participant ?? "";
    const pn = isLidJid(p) ? msg.key.participantPn ?? "" : p;
    link(p, msg.key.participantPn);
    link(msg.key.participantLid, p);
    participant = { number: pn ? jidUser(pn) : "", name: msg.pushName ?? "" };
    from = jidUser(remoteJid);
  } else if (isLidJid(remoteJid)) {
    lid = jidUser(remoteJid);
    from = msg.key.senderPn ? jidUser(msg.key.senderPn) : "";
    link(remoteJid, msg.key.senderPn);
  } else {
    from = jidUser(remoteJid);
    if (msg.key.senderLid) lid = jidUser(msg.key.senderLid);
    link(msg.key.senderLid, remoteJid);
  }

  const raw = unwrap(msg.message);
  const protocol = raw?.protocolMessage;
  if (protocol) {
    const target = protocol.key?.id;
    if (target && protocol.type === REVOKE) events.push({ type: "delete", providerId: target });
    if (target && protocol.type === MESSAGE_EDIT) {
      const edited = contentOf(unwrap(protocol.editedMessage));
      if (edited) events.push({ type: "edit", providerId: target, body: edited.body });
    }
    return { events, needsMedia: false };
  }
  if (raw?.reactionMessage) return { events, needsMedia: false };
  const content = contentOf(raw);
  if (!content || !msg.key.id) return { events, needsMedia: false };
  events.push({
    type: "message",
    message: {
      providerId: msg.key.id,
      from,
      name: isGroup ? "" : msg.pushName ?? "",
      body: content.body,
      mediaType: content.mediaType,
      fromMe: msg.key.fromMe === true,
      isGroup,
      group: isGroup ? { id: from, name: from } : undefined,
      participant,
      quotedProviderId: content.quoted,
      lid,
      timestamp: timestampOf(msg.messageTimestamp),
    },
  });
  return { events, needsMedia: content.media === true };
}

/**
 * proto.WebMessageInfo.Status → our ack, which uses the same scale (messages area: 1–2 sent,
 * 3 delivered, 4 read, 5 played); ERROR (0) is not an ack.
 */
export function ackOfStatus(status: number | null | undefined): number | null {
  if (status === null || status === undefined || status <= 0) return null;
  return Math.min(5, status);
}

/** A message-receipt.update entry → our ack (delivered 3, read 4, played 5). */
export function ackOfReceipt(receipt: { readTimestamp?: unknown; playedTimestamp?: unknown; receiptTimestamp?: unknown }): number | null {
  if (receipt.playedTimestamp) return 5;
  if (receipt.readTimestamp) return 4;
  if (receipt.receiptTimestamp) return 3;
  return null;
}
