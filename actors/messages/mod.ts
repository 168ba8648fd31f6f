/**
 * Messages of tickets (spec 000 §3–§7, issue #3; inbound/outbound paths of issue #4): what
 * other areas call. Channels call `receiveInbound`, `applyAck`, `recordSendResult`,
 * `applyRemoteEdit`, `applyRemoteDelete`; tickets call `sendSystemMessage` (greeting,
 * farewell, bot menus) and `searchTicketIds` (GET /tickets?searchParam).
 */
import type { ActorSystem } from "../_runtime/system.ts";
import type { MessagesPorts } from "./ports.ts";
import { removeMedia } from "./media_files.ts";
import { type MessageMatches, messageSearch, PARTIAL_AFTER_MS } from "./search_index.ts";
import { purgeTicketMessages } from "./store.ts";
import { log } from "../_runtime/log.ts";

export { messagesActor } from "./actor.ts";
export { bindMessages, providerIndex } from "./context.ts";
export { type InboundResult, receiveInbound } from "./inbound.ts";
export {
  companyMessagesPrefix,
  messageKey,
  type MessageMeta,
  metaKey,
  messageLogKey,
  ticketMessagesPrefix,
} from "./keys.ts";
export { type OutgoingDraft, sendOutgoing, sendSystemMessage, storeOutgoing } from "./outbound.ts";
export type { MessageMatches } from "./search_index.ts";
export { agentChange, applyAck, applyProviderFailure, applyRemoteDelete, applyRemoteEdit, recordSendResult } from "./provider.ts";
export { findByProvider, getMessage, messageCount, pageOfMessages } from "./store.ts";

/**
 * Deletes the messages of a deleted ticket and their media files (for the tickets area's
 * delete). Messages of a deleted ticket are otherwise kept, unreachable.
 */
export async function deleteTicketMessages(
  deps: MessagesPorts,
  companyId: number,
  ticketId: number,
): Promise<number> {
  const files = await purgeTicketMessages(deps.system, companyId, ticketId);
  for (const file of new Set(files)) {
    await removeMedia(deps.config.dataDir, companyId, file).catch((error) =>
      log.error(`Could not remove media ${file} of company ${companyId}`, { error })
    );
  }
  return files.length;
}

/**
 * Ids of the company's tickets with a message containing every word of `term` (folded:
 * case and accents ignored; words of 3+ characters), and whether they are partial: while the
 * company's index is still being built, the search waits for it until `waitMs` after the
 * build began and then answers from what is indexed so far. See search_index.ts.
 */
export async function searchTicketIds(
  system: ActorSystem,
  companyId: number,
  term: string,
  waitMs = PARTIAL_AFTER_MS,
): Promise<MessageMatches> {
  return await messageSearch(system).search(companyId, term, waitMs);
}

/** Starts building the companies' message-search indexes in the background (start-up). */
export function warmMessageSearch(system: ActorSystem, companyIds: readonly number[]): void {
  messageSearch(system).warmAll(companyIds);
}

/** Forgets a deleted company's message-search index. */
export function dropMessageSearch(system: ActorSystem, companyId: number): void {
  messageSearch(system).drop(companyId);
}

/** (word, ticket) pairs the message-search indexes hold in memory now (metrics). */
export function messageSearchPairs(system: ActorSystem): number {
  return messageSearch(system).pairs;
}
