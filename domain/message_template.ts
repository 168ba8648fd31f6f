/**
 * The variables of every text a customer receives (issue #41): greetings, farewells, the
 * out-of-hours and rating texts, bot options, quick replies, scheduled messages, campaigns
 * and the external API. One syntax, `{{nome}}`, filled by one function everywhere a text
 * leaves for a customer, and one list (`TEMPLATE_VARIABLES`) that the browser shows under
 * every box where such a text is typed (islands/ui/TemplateVariables.tsx).
 *
 * Texts stored before #41 keep working: `{{name}}` (greetings, farewells, bot texts) and the
 * campaigns' single-brace `{nome}`, `{primeiroNome}`, `{email}`, `{numero}` and `{atalho}` of
 * the campaign settings' own variables are read as the same variables. A key is compared
 * without case or accents; a placeholder that names no variable is left as typed.
 */
import { foldText } from "./contact.ts";
import { localClock } from "./schedule_hours.ts";

/** One variable: what is typed (`{{token}}`) and the locale key that says what it becomes. */
export interface TemplateVariable {
  token: string;
  /** Locale key of the description shown under text boxes (islands/locales/pages/ui.ts). */
  label: `templateVar.${string}`;
}

/** The variables every customer text may hold, in the order the text boxes list them. */
export const TEMPLATE_VARIABLES: readonly TemplateVariable[] = [
  { token: "nome", label: "templateVar.nome" },
  { token: "primeiroNome", label: "templateVar.primeiroNome" },
  { token: "numero", label: "templateVar.numero" },
  { token: "email", label: "templateVar.email" },
  { token: "saudacao", label: "templateVar.saudacao" },
  { token: "data", label: "templateVar.data" },
  { token: "hora", label: "templateVar.hora" },
];

/** `{{token}}` as typed in a text. */
export function variableText(token: string): string {
  return `{{${token}}}`;
}

/** Older and English spellings of the variables (folded) → the variable's folded token. */
const ALIASES: Readonly<Record<string, string>> = {
  name: "nome",
  firstname: "primeironome",
  primeiro_nome: "primeironome",
  number: "numero",
  telefone: "numero",
  phone: "numero",
  "e-mail": "email",
  greeting: "saudacao",
  ms: "saudacao",
  date: "data",
  hour: "hora",
  time: "hora",
};

/** Whom a text goes to and when, in the company's time zone. */
export interface TemplateContext {
  name: string;
  number: string;
  email?: string | null;
  /** The moment of sending (ms) and the company's zone: `{{saudacao}}`, `{{data}}`, `{{hora}}`. */
  now: number;
  timeZone: string;
  /** More variables (the campaign settings' own), by key with or without braces. */
  extra?: readonly { key: string; value: string }[];
}

/** "Bom dia" before 12:00, "Boa tarde" before 18:00, else "Boa noite" (company's clock). */
export function greetingOf(minutes: number): string {
  return minutes < 12 * 60 ? "Bom dia" : minutes < 18 * 60 ? "Boa tarde" : "Boa noite";
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** dd/MM/yyyy of `ms` in `timeZone` (spec 000 §9's date format). */
function dateOf(ms: number, timeZone: string): string {
  let f = dateFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("pt-BR", { timeZone, day: "2-digit", month: "2-digit", year: "numeric" });
    dateFormats.set(timeZone, f);
  }
  return f.format(new Date(ms));
}

/** The values of the variables for `ctx`, by folded token. */
function valuesOf(ctx: TemplateContext): Map<string, string> {
  const clock = localClock(ctx.now, ctx.timeZone);
  const hh = String(Math.floor(clock.minutes / 60)).padStart(2, "0");
  const mm = String(clock.minutes % 60).padStart(2, "0");
  const values = new Map<string, string>();
  for (const v of ctx.extra ?? []) values.set(foldText(v.key.trim().replace(/^\{+|\}+$/g, "")), v.value);
  const builtin: Record<string, string> = {
    nome: ctx.name,
    primeironome: ctx.name.trim().split(/\s+/)[0] ?? "",
    numero: ctx.number,
    email: ctx.email ?? "",
    saudacao: greetingOf(clock.minutes),
    data: dateOf(ctx.now, ctx.timeZone),
    hora: `${hh}:${mm}`,
  };
  for (const [k, v] of Object.entries(builtin)) values.set(k, v);
  return values;
}

/** `{{key}}`, `{{ key }}` or the campaigns' older `{key}`. */
const PLACEHOLDER = /\{\{\s*([^{}\s]{1,50})\s*\}\}|\{([^{}\s]{1,50})\}/g;

/** Fills the variables of `text` for `ctx` (see the module doc); unknown ones stay as typed. */
export function fillTemplate(text: string, ctx: TemplateContext): string {
  if (!text.includes("{")) return text;
  const values = valuesOf(ctx);
  return text.replace(PLACEHOLDER, (whole, double: string | undefined, single: string | undefined) => {
    const key = foldText(double ?? single ?? "");
    return values.get(key) ?? values.get(ALIASES[key] ?? "") ?? whole;
  });
}
