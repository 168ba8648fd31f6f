/**
 * The customer's chat answer to a rating survey, hooked into the inbound path
 * (server/channels/inbound.ts): while a ticket awaits the answer, the customer's messages join
 * that ticket (actors/tickets openTicketForInbound) and come here instead of the bot menu.
 * A valid answer is recorded, read (the ticket's unread count does not grow on a closed
 * ticket nobody reopens) and thanked; an invalid one gets the options again, up to
 * RATING_REASKS times, after which the wait ends quietly.
 */
import { isAwaitingRating, takeChatReply } from "../../actors/ratings/mod.ts";
import { sendSystemMessage } from "../../actors/messages/mod.ts";
import { markTicketRead } from "../../actors/tickets/mod.ts";
import type { InboundMessage } from "../../domain/channel.ts";
import { invalidReplyText, RATING_THANKS } from "../../domain/rating.ts";
import type { AppDeps } from "../deps.ts";

/**
 * Takes `message` (stored in ticket `ticketId`) as a rating answer when that ticket awaits
 * one; true when it did, so the caller skips the conversation's other behaviour.
 */
export async function takeRatingReply(
  deps: AppDeps,
  companyId: number,
  ticketId: number,
  message: InboundMessage,
): Promise<boolean> {
  if (message.fromMe || message.isGroup) return false;
  if (!(await isAwaitingRating(deps.system, companyId, ticketId))) return false;
  const outcome = await takeChatReply(deps.system, companyId, ticketId, message.body);
  if (outcome.type === "none") return false;
  if (outcome.type === "recorded") {
    // The answer is the system's to read: it never waits in the unread bell on a closed ticket.
    await markTicketRead(deps.system, companyId, ticketId);
    await sendSystemMessage(deps, companyId, ticketId, RATING_THANKS);
  }
  else if (outcome.type === "invalid") {
    await sendSystemMessage(deps, companyId, ticketId, invalidReplyText(outcome.options));
  }
  return true;
}
