/**
 * Ratings (spec 002 §2.11, §2.16; issue #17): the company's surveys (collection.ts), the
 * surveys sent to customers and their chat waits (surveys.ts), and the recorded answers
 * (answers.ts). An answer, by chat or by the public link, is recorded once per ticket and
 * then set on the ticket itself, so the ticket's change event carries it.
 */
import type { ActorSystem } from "../_runtime/system.ts";
import { setTicketRating } from "../tickets/mod.ts";
import type { RatingAnswer } from "../../domain/rating.ts";
import { type ReplyOutcome, type Survey, surveysOf } from "./surveys.ts";

export { ratings } from "./collection.ts";
export { listRatingAnswers, ratingAnswers, ticketAnswer } from "./answers.ts";
export {
  awaitingRating,
  awaitsRatingNow,
  isAwaitingRating,
  type OpenArg,
  type ReplyOutcome,
  type Survey,
  surveyByKey,
  surveysActor,
  surveysOf,
} from "./surveys.ts";

async function onTicket(system: ActorSystem, answer: RatingAnswer): Promise<void> {
  await setTicketRating(system, answer.companyId, answer.ticketId, { ratingId: answer.ratingId, rating: answer.rate });
}

/** A customer's chat message in a ticket that may await a rating answer. */
export async function takeChatReply(
  system: ActorSystem,
  companyId: number,
  ticketId: number,
  body: string,
): Promise<ReplyOutcome> {
  const outcome = await surveysOf(system, companyId).ask("reply", { ticketId, body });
  if (outcome.type === "recorded") await onTicket(system, outcome.answer);
  return outcome;
}

/** The public survey page's answer for `survey` (one per ticket; 409 after the first). */
export async function answerSurvey(system: ActorSystem, survey: Survey, value: number): Promise<RatingAnswer> {
  const answer = await surveysOf(system, survey.companyId).ask("answer", { ticketId: survey.ticketId, value });
  await onTicket(system, answer);
  return answer;
}
