/**
 * The surveys sent to customers, one actor per company (id = company id). A survey belongs to
 * a ticket: its options (a copy, so a later edit of the rating does not change what the
 * customer was asked), its unguessable public key, and, while the chat answer is awaited, a
 * wait: the ticket's conversation takes the customer's next messages as answers. The wait is
 * durable (a KV record and an actor timer armed in the same atomic) and ends with a valid
 * answer, after RATING_REASKS invalid replies, or when its timer fires (RATING_WAIT_MS).
 *
 * Keys: `["rating_survey", companyId, ticketId] → Survey` (kept: the survey link answers
 * later too), `["rating_survey_key", key] → { companyId, ticketId }` (the public page knows
 * only the key), `["rating_wait", companyId, ticketId] → Wait` (the actor's state, loaded on
 * activation). Answers are recorded in the answers collection (answers.ts), which refuses a
 * second one for a ticket; this actor serializes the waits around it.
 */
import type { RatingAnswer, RatingOption } from "../../domain/rating.ts";
import { matchReply, newSurveyKey, RATING_REASKS } from "../../domain/rating.ts";
import { AppError } from "../../domain/errors.ts";
import { type ActorContext, defineActor } from "../_runtime/actor.ts";
import type { ActorSystem } from "../_runtime/system.ts";
import { addAnswer, alreadyAnswered, ticketAnswer } from "./answers.ts";

/** A survey sent for one ticket. */
export interface Survey {
  companyId: number;
  ticketId: number;
  key: string;
  ratingId: number;
  userId: number | null;
  contactId: number;
  whatsappId: number | null;
  options: RatingOption[];
  sentAt: number;
}

/** A ticket waiting for the customer's chat answer. */
export interface Wait {
  ticketId: number;
  contactId: number;
  whatsappId: number | null;
  /** Invalid replies so far. */
  invalid: number;
  dueAt: number;
}

/** The actor's state: the open waits, by ticket and by conversation (contact on connection). */
export interface SurveysState {
  companyId: number;
  waits: Map<number, Wait>;
  byConversation: Map<string, number>;
}

type Ctx = ActorContext<SurveysState>;

export const surveyKey = (companyId: number, ticketId: number): Deno.KvKey => ["rating_survey", companyId, ticketId];
export const surveyByKeyKey = (key: string): Deno.KvKey => ["rating_survey_key", key];
export const waitKey = (companyId: number, ticketId: number): Deno.KvKey => ["rating_wait", companyId, ticketId];
const timerId = (ticketId: number) => `wait:${ticketId}`;
const conversation = (contactId: number, whatsappId: number | null) => `${contactId}:${whatsappId ?? 0}`;

/** What opening a survey needs (the caller chose the rating and checked the ticket). */
export interface OpenArg {
  ticketId: number;
  contactId: number;
  whatsappId: number | null;
  ratingId: number;
  userId: number | null;
  options: RatingOption[];
  /** Due time of the chat wait, or null to send the survey without awaiting a chat answer. */
  waitUntil: number | null;
}

/** What a customer's chat message did to a wait. */
export type ReplyOutcome =
  | { type: "none" }
  | { type: "recorded"; answer: RatingAnswer }
  | { type: "invalid"; options: RatingOption[] }
  | { type: "ended" };

function putWait(ctx: Ctx, wait: Wait): void {
  ctx.state.waits.set(wait.ticketId, wait);
  ctx.state.byConversation.set(conversation(wait.contactId, wait.whatsappId), wait.ticketId);
  ctx.set(waitKey(ctx.state.companyId, wait.ticketId), wait);
}

function endWait(ctx: Ctx, ticketId: number): void {
  const wait = ctx.state.waits.get(ticketId);
  if (!wait) return;
  ctx.state.waits.delete(ticketId);
  const conv = conversation(wait.contactId, wait.whatsappId);
  if (ctx.state.byConversation.get(conv) === ticketId) ctx.state.byConversation.delete(conv);
  ctx.delete(waitKey(ctx.state.companyId, ticketId));
  if (ctx.timerDue(timerId(ticketId)) !== undefined) ctx.cancelTimer(timerId(ticketId));
}

async function readSurvey(ctx: Ctx, ticketId: number): Promise<Survey | null> {
  return (await ctx.kv.get<Survey>(surveyKey(ctx.state.companyId, ticketId))).value;
}

/** Records the answer `option` for the survey's ticket; the wait (if any) ends either way. */
async function record(
  ctx: Ctx,
  survey: Survey,
  value: number,
  via: RatingAnswer["via"],
): Promise<RatingAnswer | null> {
  let answer: RatingAnswer | null = null;
  try {
    answer = await addAnswer(ctx.system, ctx.state.companyId, {
      ticketId: survey.ticketId,
      userId: survey.userId,
      ratingId: survey.ratingId,
      rate: value,
      contactId: survey.contactId,
      via,
    });
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== "ERR_CONFLICT") throw error;
  }
  endWait(ctx, survey.ticketId);
  return answer;
}

export const surveysActor = defineActor({
  kind: "rating-surveys",
  async load(kv, id): Promise<SurveysState> {
    const companyId = Number(id);
    const state: SurveysState = { companyId, waits: new Map(), byConversation: new Map() };
    for await (const entry of kv.list<Wait>({ prefix: ["rating_wait", companyId] })) {
      state.waits.set(entry.value.ticketId, entry.value);
      state.byConversation.set(conversation(entry.value.contactId, entry.value.whatsappId), entry.value.ticketId);
    }
    return state;
  },
  handlers: {
    /**
     * Stores the ticket's survey (keeping its key when one was sent before) and, with
     * `waitUntil`, opens the chat wait with its timer. Refused once the ticket was rated.
     */
    async open(ctx, arg: OpenArg): Promise<Survey> {
      const { companyId } = ctx.state;
      if (await ticketAnswer(ctx.system, companyId, arg.ticketId)) throw alreadyAnswered(arg.ticketId);
      const old = await readSurvey(ctx, arg.ticketId);
      const survey: Survey = {
        companyId,
        ticketId: arg.ticketId,
        key: old?.key ?? newSurveyKey(),
        ratingId: arg.ratingId,
        userId: arg.userId,
        contactId: arg.contactId,
        whatsappId: arg.whatsappId,
        options: arg.options,
        sentAt: ctx.now,
      };
      ctx.set(surveyKey(companyId, arg.ticketId), survey);
      if (!old) ctx.set(surveyByKeyKey(survey.key), { companyId, ticketId: arg.ticketId });
      // One wait per conversation: a newer survey for the same customer replaces the older.
      const other = ctx.state.byConversation.get(conversation(arg.contactId, arg.whatsappId));
      if (other !== undefined && other !== arg.ticketId) endWait(ctx, other);
      if (arg.waitUntil === null) endWait(ctx, arg.ticketId);
      else {
        putWait(ctx, {
          ticketId: arg.ticketId,
          contactId: arg.contactId,
          whatsappId: arg.whatsappId,
          invalid: 0,
          dueAt: arg.waitUntil,
        });
        ctx.setTimer(timerId(arg.ticketId), arg.waitUntil, "expire", { ticketId: arg.ticketId });
      }
      return survey;
    },

    /** The customer wrote `body` in the ticket's conversation: an answer, an invalid reply, or nothing to do. */
    async reply(ctx, arg: { ticketId: number; body: string }): Promise<ReplyOutcome> {
      const wait = ctx.state.waits.get(arg.ticketId);
      if (!wait) return { type: "none" };
      const survey = await readSurvey(ctx, arg.ticketId);
      if (!survey) {
        endWait(ctx, arg.ticketId);
        return { type: "ended" };
      }
      const option = matchReply(arg.body, survey.options);
      if (option) {
        const answer = await record(ctx, survey, option.value, "chat");
        return answer ? { type: "recorded", answer } : { type: "ended" };
      }
      if (wait.invalid >= RATING_REASKS) {
        endWait(ctx, arg.ticketId);
        return { type: "ended" };
      }
      putWait(ctx, { ...wait, invalid: wait.invalid + 1 });
      return { type: "invalid", options: survey.options };
    },

    /** The public survey page's answer: the value must be one of the survey's options. */
    async answer(ctx, arg: { ticketId: number; value: number }): Promise<RatingAnswer> {
      const survey = await readSurvey(ctx, arg.ticketId);
      if (!survey) throw new AppError("ERR_NOT_FOUND", { status: 404, message: `Ticket ${arg.ticketId} has no survey` });
      const option = survey.options.find((o) => o.value === arg.value);
      if (!option) {
        throw new AppError("ERR_VALIDATION", {
          status: 400,
          message: `${arg.value} is not an option of this survey`,
          fields: { value: `${arg.value} is not an option of this survey` },
        });
      }
      const answer = await record(ctx, survey, option.value, "link");
      if (!answer) throw alreadyAnswered(arg.ticketId);
      return answer;
    },

    /** Timer: the customer did not answer in time; the conversation is free again. */
    expire(ctx, arg: { ticketId: number }): void {
      endWait(ctx, arg.ticketId);
    },
  },
});

/** The surveys actor of a company. */
export function surveysOf(system: ActorSystem, companyId: number) {
  return system.ref(surveysActor, companyId);
}

/** The actor's state for a read: no turn of the loop when it is live (the inbound path asks per message). */
async function readState(system: ActorSystem, companyId: number): Promise<SurveysState> {
  const ref = surveysOf(system, companyId);
  return ref.peekNow<SurveysState>() ?? await ref.peek<SurveysState>();
}

/** The ticket waiting for this customer's chat answer on this connection, if any. */
export async function awaitingRating(
  system: ActorSystem,
  companyId: number,
  contactId: number,
  whatsappId: number | null,
): Promise<number | undefined> {
  return (await readState(system, companyId)).byConversation.get(conversation(contactId, whatsappId));
}

/** `isAwaitingRating` without a turn of the loop: undefined when the surveys are not in memory. */
export function awaitsRatingNow(system: ActorSystem, companyId: number, ticketId: number): boolean | undefined {
  return surveysOf(system, companyId).peekNow<SurveysState>()?.waits.has(ticketId);
}

/** Whether ticket `ticketId` waits for the customer's chat answer. */
export async function isAwaitingRating(system: ActorSystem, companyId: number, ticketId: number): Promise<boolean> {
  return (await readState(system, companyId)).waits.has(ticketId);
}

/** The survey behind a public key, or null (unknown key, or its company was deleted). */
export async function surveyByKey(system: ActorSystem, key: string): Promise<Survey | null> {
  if (!key || key.length > 100) return null;
  const ref = (await system.kv.get<{ companyId: number; ticketId: number }>(surveyByKeyKey(key))).value;
  if (!ref) return null;
  const survey = (await system.kv.get<Survey>(surveyKey(ref.companyId, ref.ticketId))).value;
  return survey && survey.key === key ? survey : null;
}
