/**
 * Sending a rating survey to a customer (spec 000 §4 resolve, §7 POST /ratings/messages;
 * spec 001 §3 ratingMessage, userRatingOut, ratingurl): the connection's rating message as
 * the intro, the survey's question and options, and the public survey link when `ratingurl`
 * is set. The survey (and, when asked, the chat wait) is stored before the text leaves, so an
 * answer that comes back at once finds it.
 *
 * `userRatingOut` ("Avaliação fora do expediente", the reading of the settings screen): with
 * it off, a ticket resolved while the company (or the ticket's queue, per scheduleType) is
 * out of hours closes without a survey; with it on, the survey goes out anyway. A survey asked
 * for on demand (POST /ratings/messages) always goes out.
 */
import { sendSystemMessage } from "../../actors/messages/mod.ts";
import { companySettings, getCompany } from "../../actors/platform/lookup.ts";
import { queues } from "../../actors/queues/collection.ts";
import { ratings, surveysOf, ticketAnswer } from "../../actors/ratings/mod.ts";
import { whatsapps } from "../../actors/whatsapps/collection.ts";
import { AppError, notFound } from "../../domain/errors.ts";
import { type Rating, RATING_WAIT_MS, surveyLink, surveyText } from "../../domain/rating.ts";
import { localClock, outOfHours } from "../../domain/schedule_hours.ts";
import { settingOn } from "../../domain/settings.ts";
import type { Ticket } from "../../domain/ticket.ts";
import type { AppDeps } from "../deps.ts";
import type { EffectStep } from "../../domain/ticket_effects.ts";

/** The 404 of a survey that does not exist in the company. */
export const ratingMissing = (id: number | string) =>
  notFound("ERR_NO_RATING_FOUND", `Rating ${id} does not exist`);

/** The company's survey `id`, which must exist and be active (`geral`) to be sent. */
export async function sendableRating(deps: AppDeps, companyId: number, id: number): Promise<Rating> {
  const rating = await ratings.in(deps.system, companyId).get(id);
  if (!rating) throw ratingMissing(id);
  if (!rating.geral) {
    throw new AppError("ERR_VALIDATION", {
      status: 400,
      message: `Rating ${id} is inactive`,
      fields: { ratingId: `Rating ${id} is inactive` },
    });
  }
  return rating;
}

/** Whether the ticket's company (or queue) is out of hours now, per scheduleType. */
async function closedNow(deps: AppDeps, ticket: Ticket, scheduleType: string): Promise<boolean> {
  if (scheduleType !== "company" && scheduleType !== "queue") return false;
  const company = await getCompany(deps.system, ticket.companyId);
  const queue = ticket.queueId === null ? undefined : await queues.in(deps.system, ticket.companyId).get(ticket.queueId);
  return outOfHours(
    scheduleType,
    { schedules: company?.schedules ?? [], lunchHour: company?.lunchHour ?? null },
    queue,
    localClock(deps.system.now()),
  );
}

/**
 * Sends survey `rating` in `ticket`'s conversation, rating user `userId`, and awaits the
 * customer's chat answer. Refused (409) when the ticket was already rated, and (400) for a
 * group or a ticket without a connection.
 */
export async function sendSurvey(
  deps: AppDeps,
  ticket: Ticket,
  rating: Rating,
  userId: number | null,
  /** The survey is a step of a resolve's effects (server/usecases/ticket_effects.ts). */
  effect?: EffectStep,
): Promise<{ key: string }> {
  const { system } = deps;
  if (ticket.isGroup || ticket.whatsappId === null) {
    throw new AppError("ERR_VALIDATION", {
      status: 400,
      message: `Ticket ${ticket.id} has no customer conversation to survey`,
    });
  }
  if (await ticketAnswer(system, ticket.companyId, ticket.id)) {
    throw new AppError("ERR_CONFLICT", { status: 409, message: `Ticket ${ticket.id} was already rated` });
  }
  const [settings, conn] = await Promise.all([
    companySettings(system, ticket.companyId),
    whatsapps.in(system, ticket.companyId).get(ticket.whatsappId),
  ]);
  const survey = await surveysOf(system, ticket.companyId).ask("open", {
    ticketId: ticket.id,
    contactId: ticket.contactId,
    whatsappId: ticket.whatsappId,
    ratingId: rating.id,
    userId,
    options: rating.options,
    waitUntil: system.now() + RATING_WAIT_MS,
  });
  const text = surveyText({
    intro: conn?.ratingMessage ?? "",
    question: rating.message,
    options: rating.options,
    link: surveyLink(settings.ratingurl ?? "", survey.key),
  }); // variables filled on the way out (actors/messages/outbound.ts)
  await sendSystemMessage(deps, ticket.companyId, ticket.id, text, effect);
  return { key: survey.key };
}

/**
 * The survey of a resolve (ticket effect `survey`, a step of its effects marked `effect`):
 * sent unless the company is out of hours and userRatingOut is off, or the ticket was already
 * rated (one answer per ticket), or the survey can no longer be sent (deleted, inactive).
 * Resolves whether it was sent; a failure to send throws, for the effects to try again.
 */
export async function surveyOnResolve(deps: AppDeps, ticket: Ticket, ratingId: number, effect?: EffectStep): Promise<boolean> {
  const settings = await companySettings(deps.system, ticket.companyId);
  if (!settingOn(settings.userRatingOut) && await closedNow(deps, ticket, settings.scheduleType ?? "disabled")) return false;
  if (await ticketAnswer(deps.system, ticket.companyId, ticket.id)) return false;
  const rating = await sendableRating(deps, ticket.companyId, ratingId).catch(() => undefined);
  if (!rating) return false;
  await sendSurvey(deps, ticket, rating, ticket.userId, effect);
  return true;
}
