/**
 * The variables a customer text may hold (domain/message_template.ts), listed under every box
 * where such a text is typed: greetings, farewells, out-of-hours and rating texts, bot options,
 * quick replies, schedules, campaigns, the API page. The tokens are shown as typed
 * (`{{nome}}`), outside `t()`, whose own placeholders use the same braces.
 */
import { TEMPLATE_VARIABLES, variableText } from "../../domain/message_template.ts";
import { t } from "../lib/i18n.ts";

/** Props of TemplateVariables. */
export interface TemplateVariablesProps {
  /** Id for the box's aria-describedby. */
  id?: string;
  /** More variables this box fills (the campaign settings' own), shown after the built-in ones. */
  extra?: readonly string[];
}

/** "Variáveis: {{nome}} (nome do contato) · …" */
export function TemplateVariables({ id, extra = [] }: TemplateVariablesProps) {
  return (
    <span className="field-hint template-vars" id={id} data-testid="template-vars">
      {t("templateVar.title")}{" "}
      {TEMPLATE_VARIABLES.map((v, i) => (
        <span key={v.token} className="template-var">
          {i > 0 && " · "}
          <code>{variableText(v.token)}</code> {t(v.label as never)}
        </span>
      ))}
      {extra.map((key) => (
        <span key={key} className="template-var">
          {" · "}
          <code>{variableText(key)}</code>
        </span>
      ))}
    </span>
  );
}
