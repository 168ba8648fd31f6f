/** Conversations of tickets (issue #17): what the server's conversation engine calls. */
import type { ActorSystem } from "../_runtime/system.ts";
import { type ConversationContext, quietReply } from "../../domain/conversation.ts";
import { conversationActor, conversationId, type Held } from "./actor.ts";

export { conversationActor, conversationId, conversationKey } from "./actor.ts";

/** The conversation actor of a ticket. */
export function conversationOf(system: ActorSystem, companyId: number, ticketId: number) {
  return system.ref(conversationActor, conversationId(companyId, ticketId));
}

/**
 * True when a reply on `ticket` surely changes nothing (domain/conversation.ts `quietReply`),
 * read from its conversation without a message when that actor is idle; false when it must be
 * decided (or its conversation is busy or not in memory: the ask decides then).
 */
export function replyIsQuiet(
  system: ActorSystem,
  companyId: number,
  ticket: ConversationContext["ticket"] & { id: number },
  scheduleType: string | undefined,
  offeredQueues: number,
): boolean {
  const held = conversationOf(system, companyId, ticket.id).peekIdle<Held>();
  return held !== undefined && quietReply(held.conversation, ticket, scheduleType, offeredQueues);
}
