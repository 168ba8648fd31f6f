/**
 * The reply assistant's conversation with an OpenAI-compatible chat-completions endpoint:
 * what is posted (`{ model, messages }`: the company's instructions and data description as
 * the system message, then the ticket's last messages, the customer's as `user` and the
 * company's as `assistant`) and how the answer is read (`choices[0].message.content`, a string
 * or, on some servers, a list of text parts). Pure; server/ai/suggest.ts does the call.
 */
import type { AiConfig } from "./ai_module.ts";
import type { Message } from "./message.ts";

/**
 * The label an answer of a queue's AI bot (typeChatbot "ai") carries, so the customer and the
 * agents read that a machine wrote it. Shaped like an agent's signature (`*Name:*\n`), so the
 * next request drops it from the history as it drops signatures.
 */
export const AI_REPLY_LABEL = "*Assistente virtual (IA):*";

/** `text` marked as the AI bot's answer. */
export function aiMarked(text: string): string {
  return `${AI_REPLY_LABEL}\n${text}`;
}

/** How many of the ticket's newest messages go with a suggestion request. */
export const AI_HISTORY = 20;

/** One message of a chat-completions request. */
export interface CompletionMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** The request body of `POST {endpoint}`. */
export interface CompletionRequest {
  model: string;
  messages: CompletionMessage[];
}

/**
 * An agent's text as the customer read it, without the signature line the send added
 * (`*Name:*\n`, domain/message.ts signedBody): the model would copy it, and the send signs again.
 */
function unsigned(body: string): string {
  return body.replace(/^\*[^*\n]+:\*\n/, "");
}

/** A message as text for the model: its body, with a bracketed note for media. */
function messageText(m: Message): string {
  const body = m.fromMe ? unsigned(m.body) : m.body;
  if (m.mediaType === "chat") return body.trim();
  const name = m.mediaName ? ` ${m.mediaName}` : "";
  return `[${m.mediaType}${name}] ${body}`.trim();
}

/** The request for a suggestion after `history` (oldest first; only the last AI_HISTORY count). */
export function completionRequest(config: AiConfig, history: readonly Message[]): CompletionRequest {
  const system = [config.systemMessage.trim(), config.dataDescription.trim()].filter(Boolean).join("\n\n");
  const messages: CompletionMessage[] = [{ role: "system", content: system }];
  for (const m of history.slice(-AI_HISTORY)) {
    if (m.isDeleted) continue;
    const text = messageText(m);
    if (!text) continue;
    const who = !m.fromMe && m.participant ? `${m.participant.name}: ` : "";
    messages.push({ role: m.fromMe ? "assistant" : "user", content: who + text });
  }
  return { model: config.model, messages };
}

/** The answer's text, or null when the body holds none (no choices, empty or non-text content). */
export function completionText(body: unknown): string | null {
  const choices = (body as { choices?: unknown } | null)?.choices;
  if (!Array.isArray(choices) || choices.length === 0) return null;
  const content = (choices[0] as { message?: { content?: unknown } } | null)?.message?.content;
  let text = "";
  if (typeof content === "string") text = content;
  else if (Array.isArray(content)) {
    text = content
      .map((part) => (part && typeof part === "object" && typeof (part as { text?: unknown }).text === "string" ? (part as { text: string }).text : ""))
      .join("");
  }
  text = text.trim();
  return text === "" ? null : text;
}
