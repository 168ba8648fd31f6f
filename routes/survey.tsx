/**
 * /survey?chavePesquisa=<key>: the public satisfaction survey (spec 002 §2.16). The survey is
 * read on the server (GET /buscarpesquisa/{key}, no token), so the options, or the "already
 * answered" or "not found" state, are in the first paint.
 */
import SurveyPage, { type SurveyPageProps } from "../islands/SurveyPage.tsx";
import { Island, type PageProps } from "../server/pages/island.tsx";
import type { PublicPageLoad } from "../server/pages/loader.ts";
import type { PublicSurvey } from "../domain/rating.ts";

/** The public pages' stylesheet and the survey's own. */
export const css = ["public", "survey"];

/** The survey of the link's key, or null when the key is missing or names none. */
export async function loadPublic(l: PublicPageLoad): Promise<SurveyPageProps> {
  const key = l.query.get("chavePesquisa")?.trim() ?? "";
  const survey = key ? await l.api<PublicSurvey>(`/buscarpesquisa/${encodeURIComponent(key)}`) : null;
  return { surveyKey: key, survey };
}

/** The survey page. */
export default function SurveyRoute({ ctx, data }: PageProps) {
  const props = (data as SurveyPageProps | null) ?? { surveyKey: "", survey: null };
  return (
    <main className="public-page">
      <Island<SurveyPageProps> ctx={ctx} name="SurveyPage" component={SurveyPage} props={props} />
    </main>
  );
}
