/**
 * Typebot's chat API as a WhatsApp conversation sees it (issue #17). A queue whose
 * `typeChatbot` is typebot runs one Typebot session per ticket: `startChat` when the ticket
 * enters the queue, `continueChat` with each customer reply. A reply (both calls answer the
 * same shape) carries bubbles to send and, while the flow waits for the customer, an `input`;
 * no `input` means the flow ended and the ticket waits for an agent.
 *
 * WhatsApp has no buttons here, so a choice input's items are appended as a numbered list and
 * a numeric reply is sent back to Typebot as the item's text (Typebot matches the content).
 * Media bubbles are sent as their URL. Pure; the HTTP calls are server/integrations/typebot.ts.
 */
import { z } from "zod";
import { MAX, MSG } from "./text.ts";

/** The text the customer gets when an integration fails (pt: the product's customers' language). */
export const INTEGRATION_FALLBACK_TEXT =
  "Desculpe, não consegui continuar o atendimento automático agora. Um atendente vai falar com você em breve.";

/** Most choice items listed (a longer list is unreadable on a phone). */
const MAX_CHOICES = 20;

/** A bubble of a reply; fields other than those read here are ignored. */
const Bubble = z.object({
  type: z.string(),
  content: z.unknown().optional(),
});

/** An input block of a reply: a choice input has items. */
const Input = z.object({
  type: z.string(),
  items: z.array(z.object({ content: z.string().optional(), title: z.string().optional() }).loose())
    .optional(),
}).loose();

/** startChat / continueChat answer (lenient: versions add fields). */
export const TypebotReply = z.object({
  sessionId: z.string().optional(),
  messages: z.array(Bubble).default([]),
  input: Input.nullish(),
}).loose();
export type TypebotReply = z.infer<typeof TypebotReply>;

/** What one reply means for the conversation. */
export interface TypebotTurn {
  /** The texts to send, in order. */
  texts: string[];
  /** The items of a choice input (what a numeric reply stands for); [] for other inputs. */
  choices: string[];
  /** True when the flow waits for no more input. */
  ended: boolean;
}

/** Reads a startChat/continueChat body; see the module doc. */
export function typebotTurn(reply: TypebotReply): TypebotTurn {
  const texts = reply.messages.map(bubbleText).filter((t): t is string => !!t);
  const choices = (reply.input?.items ?? [])
    .map((item) => (item.content ?? item.title ?? "").trim())
    .filter((c) => c !== "")
    .slice(0, MAX_CHOICES);
  if (choices.length) texts.push(choices.map((c, i) => `*${i + 1}* - ${c}`).join("\n"));
  return { texts, choices, ended: !reply.input };
}

/** What a customer's reply sends to Typebot: a choice's number becomes its text. */
export function typebotAnswer(body: string, choices: readonly string[]): string {
  const match = /^\s*\*?\s*(\d{1,3})\s*\*?\s*[.)]?\s*$/.exec(body);
  const picked = match ? choices[Number(match[1]) - 1] : undefined;
  return picked ?? body;
}

/** The text of one bubble: markdown or rich text as WhatsApp text, media as its URL. */
function bubbleText(bubble: z.infer<typeof Bubble>): string | null {
  const content = (bubble.content ?? {}) as Record<string, unknown>;
  if (bubble.type === "text") {
    if (typeof content.markdown === "string") return markdownToWhatsapp(content.markdown).trim() || null;
    if (Array.isArray(content.richText)) return richTextToPlain(content.richText).trim() || null;
    return null;
  }
  return typeof content.url === "string" && content.url ? content.url : null;
}

/** Typebot's markdown as WhatsApp formatting: **bold** → *bold*, [text](url) → text (url). */
export function markdownToWhatsapp(markdown: string): string {
  return markdown
    .replace(/\*\*(.+?)\*\*/g, "*$1*")
    .replace(/__(.+?)__/g, "*$1*")
    .replace(/~~(.+?)~~/g, "~$1~")
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_, text: string, url: string) => text === url ? url : `${text} (${url})`)
    .replace(/\\([\\`*_{}[\]()#+\-.!~>])/g, "$1");
}

/** Rich text (Slate-like `{ type, children: [{ text, bold }] }` nodes) as plain text, one line per block. */
export function richTextToPlain(nodes: unknown[]): string {
  return nodes.map((node) => inline(node)).join("\n");
}

function inline(node: unknown): string {
  if (node === null || typeof node !== "object") return "";
  const n = node as { text?: unknown; children?: unknown; bold?: unknown; italic?: unknown; url?: unknown };
  if (typeof n.text === "string") {
    if (!n.text.trim()) return n.text;
    if (n.bold) return `*${n.text}*`;
    if (n.italic) return `_${n.text}_`;
    return n.text;
  }
  const inner = Array.isArray(n.children) ? n.children.map(inline).join("") : "";
  return typeof n.url === "string" && n.url && inner !== n.url ? `${inner} (${n.url})` : inner;
}

/** GET /typebot/listtypebots query. */
export const TypebotListQuery = z.object({ workspaceId: z.string().trim().min(1, MSG.required).max(MAX.name, MSG.tooLong) });
