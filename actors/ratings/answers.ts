/**
 * The customers' answers of a company (scope = company id): one record per answered ticket,
 * the dashboard's ratings source. The one-answer-per-ticket rule is checked inside the
 * collection's transaction, so a chat reply and a survey-link answer racing for one ticket
 * cannot both be recorded, whichever path they come by.
 */
import { AppError } from "../../domain/errors.ts";
import { RatingAnswer } from "../../domain/rating.ts";
import type { ActorSystem } from "../_runtime/system.ts";
import { defineCollection } from "../collection/mod.ts";

export const ratingAnswers = defineCollection<RatingAnswer>({
  name: "rating_answer",
  parse: (raw) => RatingAnswer.parse(raw),
});

/** The refusal of a second answer for one ticket. */
export function alreadyAnswered(ticketId: number): AppError {
  return new AppError("ERR_CONFLICT", {
    status: 409,
    message: `Ticket ${ticketId} was already rated`,
  });
}

/** The answer of a ticket, if any (a scan of the company's answers in memory). */
export function answerOf(
  records: ReadonlyMap<number, RatingAnswer>,
  ticketId: number,
): RatingAnswer | undefined {
  for (const answer of records.values()) if (answer.ticketId === ticketId) return answer;
  return undefined;
}

/** Records `answer` unless its ticket already has one (then throws `alreadyAnswered`). */
export function addAnswer(
  system: ActorSystem,
  companyId: number,
  answer: Omit<RatingAnswer, "id" | "companyId" | "createdAt">,
): Promise<RatingAnswer> {
  return ratingAnswers.in(system, companyId).create(
    (id, now): RatingAnswer => ({ ...answer, id, companyId, createdAt: now }),
    (records) => {
      if (answerOf(records, answer.ticketId)) throw alreadyAnswered(answer.ticketId);
    },
  );
}

/** The answer recorded for `ticketId`, if any. */
export async function ticketAnswer(
  system: ActorSystem,
  companyId: number,
  ticketId: number,
): Promise<RatingAnswer | undefined> {
  return answerOf(await ratingAnswers.in(system, companyId).records(), ticketId);
}

/**
 * The company's answers recorded in `[from, to]` (ms since the epoch, both optional), oldest
 * first: what the dashboard's ratings table, average and per-user averages read.
 */
export async function listRatingAnswers(
  system: ActorSystem,
  companyId: number,
  range: { from?: number | null; to?: number | null } = {},
): Promise<RatingAnswer[]> {
  const from = range.from ?? -Infinity;
  const to = range.to ?? Infinity;
  const out: RatingAnswer[] = [];
  for (const answer of (await ratingAnswers.in(system, companyId).records()).values()) {
    if (answer.createdAt >= from && answer.createdAt <= to) out.push(answer);
  }
  return out.sort((a, b) => a.createdAt - b.createdAt || a.id - b.id);
}
