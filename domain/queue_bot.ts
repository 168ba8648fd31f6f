/**
 * Which external bot answers the customers of a queue (spec 001 §3 Queue: `typeChatbot` n8n or
 * typebot, with `typebotId` or the `n8n` webhook URL): none unless the type and its target are
 * both set, so a half-filled editor form never sends customers to a bot that cannot answer.
 * `typeChatbot` "ai" (ours, issue #20) needs no target: the company's AI module answers.
 */
import type { Queue } from "./queue.ts";

/** The bot of a queue. */
export type QueueBot =
  | { service: "typebot"; typebotId: string }
  | { service: "n8n"; url: string }
  | { service: "ai" };

/** The queue's bot, or null. */
export function queueBot(queue: Pick<Queue, "typeChatbot" | "typebotId" | "n8n">): QueueBot | null {
  if (queue.typeChatbot === "typebot" && queue.typebotId.trim()) {
    return { service: "typebot", typebotId: queue.typebotId.trim() };
  }
  if (queue.typeChatbot === "n8n" && queue.n8n.trim()) return { service: "n8n", url: queue.n8n.trim() };
  if (queue.typeChatbot === "ai") return { service: "ai" };
  return null;
}

/** The service's name as agents read it in notes. */
export function botServiceName(service: QueueBot["service"]): string {
  return service === "typebot" ? "Typebot" : service === "n8n" ? "n8n" : "IA";
}
