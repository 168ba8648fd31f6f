/**
 * Ratings (spec 002 §2.11, §3, §5, §7; spec 000 §3 "Rating"): a company's satisfaction
 * surveys, each a question (`message`) with numbered options, and the customers' answers.
 *
 * Readings chosen where the spec is silent:
 * - `geral` is the survey's active flag (002 §4 "Rating general flag: active or inactive"):
 *   only an active survey is offered in the close dialog and may be sent.
 * - A survey needs at least one option (nothing could be answered otherwise), values unique.
 * - The customer answers by typing an option's value ("5") or its name ("Ótimo"), case and
 *   accents ignored; anything else is an invalid reply (re-asked, see RATING_REASKS).
 */
import { z } from "zod";
import { foldText } from "./contact.ts";
import { MSG } from "./text.ts";

/** The validation texts of the rating dialog (spec 002 §5). */
export const RATING_NAME_SHORT = "nome muito curto";
export const RATING_VALUE_NUMERIC = "valor deve ser numérico";
export const RATING_OPTIONS_REQUIRED = "Adicione pelo menos uma opção";
export const RATING_VALUE_REPEATED = "valor repetido";

/** Largest score, either sign, a survey option records (NPS is 0–10; room for other scales). */
export const MAX_SCORE = 1000;

/** One answer a survey offers: a label and the numeric score it records. */
export const RatingOption = z.object({
  name: z.string({ error: MSG.obrigatorio }).trim().min(1, MSG.obrigatorio).max(100, MSG.tooLong),
  value: z.preprocess(
    (v) => (typeof v === "string" && v.trim() !== "" ? Number(v.replace(",", ".")) : v),
    z.number({ error: RATING_VALUE_NUMERIC }).min(-MAX_SCORE).max(MAX_SCORE),
  ),
});
export type RatingOption = z.infer<typeof RatingOption>;

/** A survey as stored (spec 002 §3 Rating). */
export const Rating = z.object({
  id: z.number(),
  companyId: z.number(),
  name: z.string(),
  message: z.string(),
  geral: z.boolean(),
  options: z.array(RatingOption),
  userId: z.number().nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type Rating = z.infer<typeof Rating>;

const Bool = z.preprocess((v) => v === true || v === "true" || v === "1" || v === 1, z.boolean());

/** POST /ratings and PUT /ratings/{id} body (the rating dialog's form). */
export const RatingInput = z.object({
  name: z.string({ error: MSG.obrigatorio }).trim().min(1, MSG.obrigatorio)
    .min(3, RATING_NAME_SHORT).max(100, MSG.tooLong),
  message: z.string({ error: MSG.obrigatorio }).trim().min(1, MSG.obrigatorio)
    .max(2000, MSG.tooLong),
  geral: Bool.default(true),
  options: z.array(RatingOption, { error: RATING_OPTIONS_REQUIRED }).min(1, RATING_OPTIONS_REQUIRED)
    .max(20).refine(
      (list) => new Set(list.map((o) => o.value)).size === list.length,
      RATING_VALUE_REPEATED,
    ),
  userId: z.coerce.number().int().positive().nullable().optional(),
});
export type RatingInput = z.infer<typeof RatingInput>;

/** POST /ratings/messages/{ticketId} body: which survey to send, and the user it rates. */
export const RatingSendInput = z.object({
  ratingId: z.coerce.number({ error: MSG.obrigatorio }).int().positive(MSG.obrigatorio),
  userId: z.coerce.number().int().positive().nullable().optional(),
});
export type RatingSendInput = z.infer<typeof RatingSendInput>;

/** The public survey's answer body (POST /buscarpesquisa/{chavePesquisa}). */
export const SurveyAnswerInput = z.object({
  value: z.coerce.number({ error: RATING_VALUE_NUMERIC }).min(-MAX_SCORE).max(MAX_SCORE),
});
export type SurveyAnswerInput = z.infer<typeof SurveyAnswerInput>;

/** What the public survey page reads of a survey (GET /buscarpesquisa/{chavePesquisa}). */
export interface PublicSurvey {
  /** The options as spec 002 §3 "Survey option" names them. */
  options: Array<{ ratingId: number; name: string; value: number }>;
  name: string;
  message: string;
  companyName: string;
  answered: boolean;
  /** The recorded score, once answered. */
  rate: number | null;
}

/** A customer's recorded answer; one per ticket (the dashboard's ratings read these). */
export const RatingAnswer = z.object({
  id: z.number(),
  companyId: z.number(),
  ticketId: z.number(),
  /** The user the answer rates (the ticket's user when the survey was sent). */
  userId: z.number().nullable(),
  ratingId: z.number(),
  rate: z.number(),
  contactId: z.number(),
  /** Where the answer came from: the chat reply or the public survey page. */
  via: z.enum(["chat", "link"]).default("chat"),
  createdAt: z.number(),
});
export type RatingAnswer = z.infer<typeof RatingAnswer>;

/** How many times an invalid chat reply is answered with the survey again before the wait ends. */
export const RATING_REASKS = 2;

/**
 * How long a resolved ticket waits for the customer's chat answer: WhatsApp's 24-hour service
 * window. After it, what the customer writes is a new conversation (a new ticket), while the
 * survey link still accepts the answer.
 */
export const RATING_WAIT_MS = 24 * 3600 * 1000;

/** Surveys newest first (the ratings screen). */
export function ratingsNewestFirst(list: readonly Rating[]): Rating[] {
  return [...list].sort((a, b) => b.id - a.id);
}

/** Surveys by name (GET /ratings/list, the close dialog's choices). */
export function ratingsByName(list: readonly Rating[]): Rating[] {
  return [...list].sort((a, b) => a.name.localeCompare(b.name, "pt") || a.id - b.id);
}

/** The option lines of a survey: "*5* - Ótimo", in the survey's order. */
export function optionLines(options: readonly RatingOption[]): string[] {
  return options.map((o) => `*${o.value}* - ${o.name}`);
}

/**
 * The survey as the customer reads it: the connection's rating message (its intro, when set),
 * the survey's question, its options, and the public survey link when there is one.
 */
export function surveyText(
  parts: { intro: string; question: string; options: readonly RatingOption[]; link: string | null },
): string {
  const blocks = [parts.intro.trim(), parts.question.trim(), optionLines(parts.options).join("\n")];
  if (parts.link) blocks.push(parts.link);
  return blocks.filter((b) => b !== "").join("\n\n");
}

/** The re-ask after an invalid reply: the options again. */
export function invalidReplyText(options: readonly RatingOption[]): string {
  return ["Opção inválida. Responda com o número de uma das opções:", optionLines(options).join("\n")]
    .join("\n\n");
}

/** Sent once a chat answer is recorded. */
export const RATING_THANKS = "Obrigado pela sua avaliação!";

/**
 * The option the customer's reply picks, or null: the option's value typed as a number
 * ("5", "*5*", "5.", "nota 5" is not), or its name (case and accents ignored).
 */
export function matchReply(body: string, options: readonly RatingOption[]): RatingOption | null {
  const text = body.trim();
  const numeric = /^\*?\s*(-?\d+(?:[.,]\d+)?)\s*\*?\s*[.)]?$/.exec(text);
  if (numeric) {
    const value = Number(numeric[1].replace(",", "."));
    return options.find((o) => o.value === value) ?? null;
  }
  const folded = foldText(text).replace(/\s+/g, " ");
  if (!folded) return null;
  return options.find((o) => foldText(o.name.trim()).replace(/\s+/g, " ") === folded) ?? null;
}

/** The public survey link: `ratingurl` with `chavePesquisa` added, or null when unset or invalid. */
export function surveyLink(ratingurl: string, key: string): string | null {
  const base = ratingurl.trim();
  if (!base) return null;
  try {
    const url = new URL(base);
    url.searchParams.set("chavePesquisa", key);
    return url.toString();
  } catch {
    return null;
  }
}

/** An unguessable survey key: 128 random bits, URL-safe. */
export function newSurveyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
