/**
 * The first steps on the Help screen (issue #41: "Ajuda" had two sentences for a new admin):
 * connection → queues → agents → the simulator, each with what to do there and a link.
 */
import { t } from "../lib/i18n.ts";

const STEPS = [
  { key: "connection", href: "/connections" },
  { key: "queues", href: "/queues" },
  { key: "agents", href: "/users" },
  { key: "simulator", href: "/simulator" },
] as const;

/** The numbered first-steps guide. */
export function FirstSteps() {
  return (
    <section className="first-steps" aria-labelledby="first-steps-title" data-testid="first-steps">
      <h2 id="first-steps-title" className="section-title">{t("helps.firstSteps")}</h2>
      <p className="muted">{t("helps.firstStepsIntro")}</p>
      <ol className="first-steps-list">
        {STEPS.map((s) => (
          <li key={s.key}>
            <strong>{t(`helps.step.${s.key}.title`)}</strong>
            <p>{t(`helps.step.${s.key}.text`)}</p>
            <a href={s.href} {...(s.key === "simulator" ? { target: "_blank", rel: "noopener" } : {})}>{t(`helps.step.${s.key}.link`)}</a>
          </li>
        ))}
      </ol>
    </section>
  );
}
