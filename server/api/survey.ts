/**
 * The public survey (spec 002 §2.16, §7): the customer opens `/survey?chavePesquisa=<key>`
 * from the link in the survey message; no login, the key alone names the ticket's survey.
 * `GET /buscarpesquisa/{chavePesquisa}` → the options (and whether it was answered);
 * `POST /buscarpesquisa/{chavePesquisa}` `{ value }` records the answer — what is posted is
 * not shown in the spec; one answer per ticket, a second is 409 whichever way the first came.
 */
import { Hono } from "hono";
import { answerSurvey, ratings, surveyByKey, ticketAnswer } from "../../actors/ratings/mod.ts";
import { getCompany } from "../../actors/platform/lookup.ts";
import { notFound } from "../../domain/errors.ts";
import { type PublicSurvey, SurveyAnswerInput } from "../../domain/rating.ts";
import type { AppEnv } from "../deps.ts";
import { parseBody } from "../http/validate.ts";

const unknownKey = () => notFound("ERR_NO_RATING_FOUND", "No survey has this key");

/** The public survey routes, mounted at `/buscarpesquisa`. */
export function surveyRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get("/:chavePesquisa", async (c) => {
    const { system } = c.get("deps");
    const survey = await surveyByKey(system, c.req.param("chavePesquisa"));
    if (!survey) throw unknownKey();
    const [rating, company, answer] = await Promise.all([
      ratings.in(system, survey.companyId).get(survey.ratingId),
      getCompany(system, survey.companyId),
      ticketAnswer(system, survey.companyId, survey.ticketId),
    ]);
    const body: PublicSurvey = {
      options: survey.options.map((o) => ({ ratingId: survey.ratingId, name: o.name, value: o.value })),
      name: rating?.name ?? "",
      message: rating?.message ?? "",
      companyName: company?.name ?? "",
      answered: answer !== undefined,
      rate: answer?.rate ?? null,
    };
    return c.json(body);
  });

  app.post("/:chavePesquisa", async (c) => {
    const { system } = c.get("deps");
    const survey = await surveyByKey(system, c.req.param("chavePesquisa"));
    if (!survey) throw unknownKey();
    const input = await parseBody(c, SurveyAnswerInput);
    const answer = await answerSurvey(system, survey, input.value);
    return c.json({ answered: true, rate: answer.rate });
  });

  return app;
}
