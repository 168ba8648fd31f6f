/**
 * Pure mapping between the WhatsApp Cloud API's JSON (Graph API webhooks and the messages
 * endpoint) and the channel shapes of domain/channel.ts, kept apart from the adapter's I/O
 * so every rule is unit-tested: which webhook entries are messages, reactions or statuses,
 * what a status means as an ack, the bodies POSTed to /{phone-number-id}/messages, the
 * 24-hour customer-service window and how an approved template reads.
 */
import type { InboundMessage, MediaType, TemplateSend } from "../../domain/channel.ts";
import { renderTemplate, type TemplateInfo } from "../../domain/whatsapp.ts";
import { digits } from "./types.ts";

export { renderTemplate, type TemplateInfo };

/** How long after the customer's last message free text may be sent (Meta's rule). */
export const WINDOW_MS = 24 * 60 * 60 * 1000;

/** Graph's error code for "more than 24 hours since the customer last replied". */
export const GRAPH_REENGAGEMENT_CODE = 131047;

/** An inbound message as read from a webhook; `mediaId` still has to be downloaded. */
export interface CloudInbound {
  message: InboundMessage;
  /** The Graph media id of an image, audio, video, document or sticker. */
  mediaId?: string;
  mimetype?: string;
  filename?: string;
}

/**
 * A status notification: an ack of one of our sent messages, or its failure; `callbackData`
 * is the `biz_opaque_callback_data` the send carried (a keyed send's key, cloudapi_keyed.ts).
 */
export type CloudStatus =
  & ({ providerId: string; ack: number } | { providerId: string; failed: { code: number | null; title: string } })
  & { callbackData?: string };

/** What one webhook POST carries for our number. */
export interface CloudNotification {
  messages: CloudInbound[];
  statuses: CloudStatus[];
}

// deno-lint-ignore no-explicit-any -- Graph webhook JSON is loosely shaped; read defensively
type Json = any;

const MEDIA_TYPES: Record<string, MediaType> = {
  image: "image",
  audio: "audio",
  video: "video",
  document: "document",
  sticker: "sticker",
};

/** File extension of a MIME type, for a media file that comes without a name. */
export function extensionOf(mimetype: string): string {
  const sub = mimetype.split("/")[1]?.split(";")[0]?.trim() ?? "";
  if (sub === "jpeg") return "jpg";
  if (sub === "ogg" || sub === "opus") return "ogg";
  if (sub === "mpeg") return "mp3";
  return sub.replace(/[^a-z0-9]/gi, "").slice(0, 8) || "bin";
}

/** Body and type of one Cloud API message; null for kinds we do not store (system, unsupported). */
function contentOf(m: Json): { body: string; mediaType: MediaType; quoted?: string; media?: Json } | null {
  const type = String(m?.type ?? "");
  if (type === "text") return { body: String(m.text?.body ?? ""), mediaType: "chat" };
  if (MEDIA_TYPES[type]) {
    const node = m[type] ?? {};
    return { body: String(node.caption ?? ""), mediaType: MEDIA_TYPES[type], media: node };
  }
  if (type === "reaction") {
    const emoji = String(m.reaction?.emoji ?? "");
    // An empty emoji removes a reaction: nothing to store.
    if (!emoji || !m.reaction?.message_id) return null;
    return { body: emoji, mediaType: "reactionMessage", quoted: String(m.reaction.message_id) };
  }
  if (type === "location") {
    const l = m.location ?? {};
    const lines = [l.name, l.address, `https://maps.google.com/maps?q=${l.latitude},${l.longitude}`];
    return { body: lines.filter(Boolean).join("\n"), mediaType: "locationMessage" };
  }
  if (type === "contacts") {
    const cards = (Array.isArray(m.contacts) ? m.contacts : []).map((c: Json) => {
      const phones = (Array.isArray(c?.phones) ? c.phones : []).map((p: Json) => p?.wa_id ?? p?.phone).filter(Boolean);
      return [c?.name?.formatted_name ?? "", ...phones].filter(Boolean).join(": ");
    });
    return { body: cards.join("\n"), mediaType: cards.length > 1 ? "contactsArrayMessage" : "contactMessage" };
  }
  if (type === "button") return { body: String(m.button?.text ?? m.button?.payload ?? ""), mediaType: "chat" };
  if (type === "interactive") {
    const reply = m.interactive?.button_reply ?? m.interactive?.list_reply;
    return reply ? { body: String(reply.title ?? reply.id ?? ""), mediaType: "chat" } : null;
  }
  return null;
}

/** A Graph status → our ack (sent 2, delivered 3, read 4); null for failed and unknown ones. */
export function ackOfCloudStatus(status: string): number | null {
  switch (status) {
    case "sent":
      return 2;
    case "delivered":
      return 3;
    case "read":
      return 4;
    default:
      return null;
  }
}

/**
 * The messages and statuses of a webhook payload (`object: whatsapp_business_account`) that
 * belong to the number `phoneNumberId` (a shared app's webhook may carry other numbers').
 */
export function readNotification(payload: Json, phoneNumberId: string): CloudNotification {
  const out: CloudNotification = { messages: [], statuses: [] };
  if (payload?.object !== "whatsapp_business_account") return out;
  for (const entry of Array.isArray(payload.entry) ? payload.entry : []) {
    for (const change of Array.isArray(entry?.changes) ? entry.changes : []) {
      const value = change?.value;
      if (change?.field !== "messages" || !value) continue;
      const ours = value.metadata?.phone_number_id;
      if (ours !== undefined && String(ours) !== phoneNumberId) continue;
      const names = new Map<string, string>();
      for (const c of Array.isArray(value.contacts) ? value.contacts : []) {
        if (c?.wa_id) names.set(String(c.wa_id), String(c.profile?.name ?? ""));
      }
      for (const m of Array.isArray(value.messages) ? value.messages : []) {
        const inbound = inboundOf(m, names);
        if (inbound) out.messages.push(inbound);
      }
      for (const s of Array.isArray(value.statuses) ? value.statuses : []) {
        if (!s?.id) continue;
        const providerId = String(s.id);
        const callback = typeof s.biz_opaque_callback_data === "string" && s.biz_opaque_callback_data ? { callbackData: s.biz_opaque_callback_data } : {};
        if (s.status === "failed") {
          const error = Array.isArray(s.errors) ? s.errors[0] : undefined;
          out.statuses.push({ providerId, failed: { code: typeof error?.code === "number" ? error.code : null, title: String(error?.title ?? error?.message ?? "failed") }, ...callback });
          continue;
        }
        const ack = ackOfCloudStatus(String(s.status));
        if (ack !== null) out.statuses.push({ providerId, ack, ...callback });
      }
    }
  }
  return out;
}

function inboundOf(m: Json, names: Map<string, string>): CloudInbound | null {
  if (!m?.id || !m?.from) return null;
  const content = contentOf(m);
  if (!content) return null;
  const from = digits(String(m.from));
  const message: InboundMessage = {
    providerId: String(m.id),
    from,
    name: names.get(String(m.from)) ?? "",
    body: content.body,
    mediaType: content.mediaType,
    fromMe: false,
    isGroup: false,
    quotedProviderId: content.quoted ?? (m.context?.id ? String(m.context.id) : undefined),
    timestamp: Number(m.timestamp ?? 0) * 1000 || Date.now(),
  };
  if (!content.media?.id) return { message };
  const mimetype = String(content.media.mime_type ?? "application/octet-stream").split(";")[0].trim();
  const filename = content.media.filename
    ? String(content.media.filename)
    : `${message.providerId.replace(/[^A-Za-z0-9_-]/g, "").slice(-24) || "media"}.${extensionOf(mimetype)}`;
  return { message, mediaId: String(content.media.id), mimetype, filename };
}

/** The Cloud API's own media kinds for an outgoing file. */
export type CloudMediaKind = "image" | "audio" | "video" | "document" | "sticker";

/** The kind an outgoing file is sent as (what Meta accepts per MIME type; the rest as documents). */
export function cloudMediaKind(mediaType: MediaType, mimetype: string): CloudMediaKind {
  if (mediaType === "sticker" && mimetype === "image/webp") return "sticker";
  if ((mediaType === "image" || mimetype.startsWith("image/")) && /^image\/(jpeg|png)$/.test(mimetype)) return "image";
  if (mediaType === "video" || /^video\/(mp4|3gpp)$/.test(mimetype)) return /^video\/(mp4|3gpp)$/.test(mimetype) ? "video" : "document";
  if (mediaType === "audio" || mimetype.startsWith("audio/")) return "audio";
  return "document";
}

const base = (to: string) => ({ messaging_product: "whatsapp", recipient_type: "individual", to });
const context = (quoted?: string) => (quoted ? { context: { message_id: quoted } } : {});

/** POST /{phone-number-id}/messages body of a text. */
export function textRequest(to: string, body: string, quoted?: string) {
  return { ...base(to), ...context(quoted), type: "text", text: { preview_url: /https?:\/\//.test(body), body } };
}

/** POST /{phone-number-id}/messages body of an uploaded media (audio and stickers take no caption). */
export function mediaRequest(to: string, kind: CloudMediaKind, mediaId: string, caption: string, filename: string, quoted?: string) {
  const node: Record<string, string> = { id: mediaId };
  if (caption && kind !== "audio" && kind !== "sticker") node.caption = caption;
  if (kind === "document") node.filename = filename;
  return { ...base(to), ...context(quoted), type: kind, [kind]: node };
}

/** POST /{phone-number-id}/messages body of a template with positional body parameters. */
export function templateRequest(to: string, template: TemplateSend) {
  return {
    ...base(to),
    type: "template",
    template: {
      name: template.name,
      language: { code: template.language },
      ...(template.params.length > 0
        ? { components: [{ type: "body", parameters: template.params.map((text) => ({ type: "text", text })) }] }
        : {}),
    },
  };
}

/** POST /{phone-number-id}/messages body that marks an inbound message read. */
export function readRequest(providerId: string) {
  return { messaging_product: "whatsapp", status: "read", message_id: providerId };
}

/** Whether free text may be sent at `now` after the customer's last message at `lastInbound`. */
export function windowOf(lastInbound: number | null, now: number): { open: boolean; expiresAt: number | null } {
  if (lastInbound === null) return { open: false, expiresAt: null };
  const expiresAt = lastInbound + WINDOW_MS;
  return { open: now < expiresAt, expiresAt };
}

/** One row of GET /{waba-id}/message_templates as a TemplateInfo. */
export function templateInfo(row: Json): TemplateInfo {
  const components = Array.isArray(row?.components) ? row.components : [];
  const bodyText = String(components.find((c: Json) => String(c?.type).toUpperCase() === "BODY")?.text ?? "");
  const numbers = [...bodyText.matchAll(/\{\{\s*(\d+)\s*\}\}/g)].map((m) => Number(m[1]));
  return {
    name: String(row?.name ?? ""),
    language: String(row?.language ?? ""),
    category: String(row?.category ?? ""),
    status: String(row?.status ?? ""),
    body: bodyText,
    params: numbers.length > 0 ? Math.max(...numbers) : 0,
  };
}
