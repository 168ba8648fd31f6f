/** Conversations of tickets (issue #17): what the server's conversation engine calls. */
import type { ActorSystem } from "../_runtime/system.ts";
import { conversationActor, conversationId } from "./actor.ts";

export { conversationActor, conversationId, conversationKey } from "./actor.ts";

/** The conversation actor of a ticket. */
export function conversationOf(system: ActorSystem, companyId: number, ticketId: number) {
  return system.ref(conversationActor, conversationId(companyId, ticketId));
}
