/**
 * The public survey (spec 002 §2.16): the survey's options as big buttons; one tap records the
 * answer (POST /buscarpesquisa/{key}) and shows the thank-you state. An answered survey shows
 * the already-answered state (also when the answer came meanwhile by chat: the 409).
 * Like every public page (spec 002 §2.1's route guard), a visitor holding a session is sent
 * to / once hydrated: the survey is the customer's, not an agent's.
 */
import { useEffect, useState } from "react";
import { CheckCircle2, CircleAlert } from "lucide-react";
import { api, ApiError } from "./lib/api.ts";
import { t } from "./lib/i18n.ts";
import { PublicCard } from "./login/PublicCard.tsx";
import { useLeaveIfSignedIn } from "./login/signed_in.ts";
import type { PublicSurvey } from "../domain/rating.ts";

/** Props of the SurveyPage island: the link's key and its survey (null: none found). */
export interface SurveyPageProps {
  surveyKey: string;
  survey: PublicSurvey | null;
}

type State =
  | { kind: "ask"; error: string }
  | { kind: "sending"; value: number }
  | { kind: "thanks"; rate: number }
  | { kind: "answered"; rate: number | null };

/** The survey card in its four states. */
export default function SurveyPage({ surveyKey, survey }: SurveyPageProps) {
  const [state, setState] = useState<State>(
    survey?.answered ? { kind: "answered", rate: survey.rate } : { kind: "ask", error: "" },
  );
  useLeaveIfSignedIn();
  // The server's buttons are disabled until hydrated: a tap before then would do nothing.
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  if (!survey) {
    return (
      <PublicCard title={t("survey.title")} testId="survey-invalid">
        <p className="survey-state"><CircleAlert aria-hidden="true" /> {t("survey.invalid")}</p>
        <p className="public-note">{t("survey.invalidNote")}</p>
      </PublicCard>
    );
  }
  async function answer(value: number) {
    setState({ kind: "sending", value });
    try {
      const saved = await api<{ rate: number }>("POST", `/buscarpesquisa/${encodeURIComponent(surveyKey)}`, { value });
      setState({ kind: "thanks", rate: saved.rate });
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) setState({ kind: "answered", rate: null });
      else setState({ kind: "ask", error: t("survey.failed") });
    }
  }
  return (
    <PublicCard title={survey.name || t("survey.title")} testId={`survey-${state.kind}`}>
      {survey.companyName && <p className="public-note">{t("survey.from", { company: survey.companyName })}</p>}
      {state.kind === "thanks" && (
        <div className="survey-state survey-done" role="status">
          <CheckCircle2 aria-hidden="true" />
          <div>
            <strong>{t("survey.thanks")}</strong>
            <p>{t("survey.thanksNote")}</p>
          </div>
        </div>
      )}
      {state.kind === "answered" && (
        <div className="survey-state" role="status">
          <CheckCircle2 aria-hidden="true" />
          <div>
            <strong>{t("survey.answered")}</strong>
            {state.rate !== null && <p>{t("survey.answeredRate", { rate: state.rate })}</p>}
          </div>
        </div>
      )}
      {(state.kind === "ask" || state.kind === "sending") && (
        <>
          {survey.message && <p className="survey-question">{survey.message}</p>}
          <p className="public-note">{t("survey.choose")}</p>
          <div className="survey-options" role="group" aria-label={t("survey.choose")}>
            {survey.options.map((o) => (
              <button
                key={o.value}
                type="button"
                className="btn survey-option"
                disabled={!ready || state.kind === "sending"}
                aria-busy={state.kind === "sending" && state.value === o.value}
                onClick={() => answer(o.value)}
                data-testid={`survey-option-${o.value}`}
              >
                <span className="survey-value">{o.value}</span>
                <span className="survey-name">{state.kind === "sending" && state.value === o.value ? t("survey.sending") : o.name}</span>
              </button>
            ))}
          </div>
          {state.kind === "ask" && state.error && <p className="field-error" role="alert">{state.error}</p>}
        </>
      )}
    </PublicCard>
  );
}
