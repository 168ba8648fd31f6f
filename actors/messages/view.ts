/**
 * Messages as the API and `appMessage` events show them (`MessageView`): dates as ISO text,
 * the media file as a signed URL, the contact as `{ id, name }` and the quoted message
 * expanded to `{ id, body, fromMe, mediaType }`.
 */
import type { Message, MessageView, QuotedView } from "../../domain/message.ts";
import { parseMessageId } from "../../domain/message.ts";
import { signMediaUrl } from "../../domain/media_url.ts";
import { messageKey } from "./keys.ts";
import { isoText } from "../../domain/iso_date.ts";
import { storedMessageOrNull } from "./stored.ts";

/** What building views needs: the signing secret and KV for quoted messages. */
export interface ViewContext {
  secret: string;
  kv: Deno.Kv;
}

/** `getMany` takes at most 10 keys. */
const GET_MANY = 10;

/** Reads the quoted messages of `messages` (those not among `messages` themselves). */
async function quotedOf(
  kv: Deno.Kv,
  companyId: number,
  messages: readonly Message[],
): Promise<Map<string, Message>> {
  if (!messages.some((m) => m.quotedMsgId !== null)) return new Map();
  const known = new Map(messages.map((m) => [m.id, m]));
  const wanted: Deno.KvKey[] = [];
  const seen = new Set<string>();
  for (const m of messages) {
    const id = m.quotedMsgId;
    if (id === null || known.has(id) || seen.has(id)) continue;
    const ref = parseMessageId(id);
    if (!ref) continue;
    seen.add(id);
    wanted.push(messageKey(companyId, ref.ticketId, id));
  }
  for (let i = 0; i < wanted.length; i += GET_MANY) {
    const entries = await kv.getMany(wanted.slice(i, i + GET_MANY));
    for (const entry of entries) {
      const message = storedMessageOrNull(entry.value);
      if (message) known.set(message.id, message);
    }
  }
  return known;
}

function quotedView(m: Message | undefined): QuotedView | null {
  return m ? { id: m.id, body: m.isDeleted ? "" : m.body, fromMe: m.fromMe, mediaType: m.mediaType } : null;
}

/** The views of `messages` (one company), in the same order. */
export async function messageViews(
  ctx: ViewContext,
  companyId: number,
  messages: readonly Message[],
  contact: { id: number; name: string } | null,
): Promise<MessageView[]> {
  const quoted = await quotedOf(ctx.kv, companyId, messages);
  const now = Date.now();
  // Only media need the (async) URL signing; the rest is built without a promise per message.
  const urls = messages.some((m) => m.mediaUrl)
    ? await Promise.all(messages.map((m) => m.mediaUrl ? signMediaUrl(ctx.secret, companyId, m.mediaUrl, now) : null))
    : null;
  return messages.map((m, i) => {
    const created = isoText(m.createdAt);
    // `sendAttempts` left out as undefined, not by a rest pattern: see tickets/view.ts `baseFields`.
    return {
      ...m,
      sendAttempts: undefined,
      mediaUrl: urls ? urls[i] : null,
      contact,
      quotedMsg: m.quotedMsgId ? quotedView(quoted.get(m.quotedMsgId)) : null,
      createdAt: created,
      updatedAt: m.updatedAt === m.createdAt ? created : isoText(m.updatedAt),
    };
  });
}

/** The view of one message. */
export async function messageView(
  ctx: ViewContext,
  message: Message,
  contact: { id: number; name: string } | null,
): Promise<MessageView> {
  const [view] = await messageViews(ctx, message.companyId, [message], contact);
  return view;
}
