/**
 * One reading of a typed phone number for every place a person types one (issue #41): the
 * contact form and imports, contact lists and their imports, the external API, and so the
 * campaigns sent to those lists. The API page promised it ("Sem +, o código do país 55 é o
 * padrão; um celular sem o nono dígito o recebe"); contacts and lists used to keep the digits
 * as typed, so "(11) 96666-0001" became 11966660001, which no WhatsApp account can have.
 *
 * - A number written with `+` or `00` keeps the country code it names.
 * - Otherwise a number with the length of a national number of the company's country
 *   (`pais`, Brazil by default) gets that country's code; a national trunk `0` before it goes.
 * - A Brazilian mobile written without its ninth digit (55 + area + eight digits from 6 to 9)
 *   gets the 9 (Anatel's rule since 2016).
 *
 * Numbers WhatsApp sends us (inbound messages, a phone's address book) are already
 * international and are compared as digits (contact.ts `normalizeNumber`), never re-read here.
 *
 * `phoneProblem` says when digits cannot be a WhatsApp number at all (E.164 length, Brazil's
 * and North America's numbering plans): such a number is refused by the forms, flagged invalid
 * in a contact list, and a campaign never counts a send to it as delivered.
 */
import { DEFAULT_COUNTRY } from "./countries.ts";

/** Digits of a number (contact.ts `normalizeNumber`; not imported, as contact.ts imports this). */
const normalizeNumber = (raw: string): string => raw.replace(/\D/g, "");

/** Calling code and national-number lengths (without trunk prefix) of the sign-up countries. */
const PLANS: Readonly<Record<string, { code: string; national: readonly [number, number] }>> = {
  BR: { code: "55", national: [10, 11] },
  AR: { code: "54", national: [10, 11] },
  BO: { code: "591", national: [8, 8] },
  CL: { code: "56", national: [9, 9] },
  CO: { code: "57", national: [10, 10] },
  EC: { code: "593", national: [8, 9] },
  PY: { code: "595", national: [9, 9] },
  PE: { code: "51", national: [8, 9] },
  UY: { code: "598", national: [8, 8] },
  VE: { code: "58", national: [10, 10] },
  MX: { code: "52", national: [10, 10] },
  US: { code: "1", national: [10, 10] },
  CA: { code: "1", national: [10, 10] },
  PT: { code: "351", national: [9, 9] },
  ES: { code: "34", national: [9, 9] },
  FR: { code: "33", national: [9, 9] },
  DE: { code: "49", national: [10, 11] },
  IT: { code: "39", national: [9, 10] },
  GB: { code: "44", national: [10, 10] },
  AO: { code: "244", national: [9, 9] },
  MZ: { code: "258", national: [8, 9] },
};

/** Country names a company may have stored in `pais` before it held ISO codes. */
const NAMES: Readonly<Record<string, string>> = { brasil: "BR", brazil: "BR", portugal: "PT", "estados unidos": "US" };

/** The numbering plan of a company's `pais` (an ISO code or a name); Brazil's when unknown. */
function planOf(country: string | null | undefined): { code: string; national: readonly [number, number] } {
  const raw = (country ?? "").trim();
  const iso = PLANS[raw.toUpperCase()] ? raw.toUpperCase() : NAMES[raw.toLowerCase()] ?? DEFAULT_COUNTRY;
  return PLANS[iso] ?? PLANS[DEFAULT_COUNTRY];
}

/** The calling code of a company's country ("55" for Brazil and when unknown). */
export function callingCode(country: string | null | undefined): string {
  return planOf(country).code;
}

/** The number as a person typed it, reduced to its digits with a leading "+" when it named its country. */
export function typedPhone(raw: string): string {
  const s = raw.trim();
  const digits = normalizeNumber(s);
  if (s.startsWith("+")) return `+${digits}`;
  if (s.startsWith("00") && digits.length > 2) return `+${digits.slice(2)}`;
  return digits;
}

/** The international digits of a typed number for a company in `country` (module doc). */
export function normalizePhone(raw: string, country?: string | null): string {
  const typed = typedPhone(raw);
  let d = normalizeNumber(typed);
  if (!typed.startsWith("+")) {
    const plan = planOf(country);
    const [min, max] = plan.national;
    if (d.startsWith("0") && d.length - 1 >= min && d.length - 1 <= max) d = d.slice(1);
    if (d.length >= min && d.length <= max) d = plan.code + d;
  }
  if (d.length === 12 && d.startsWith("55") && /[6-9]/.test(d[4])) d = `${d.slice(0, 4)}9${d.slice(4)}`;
  return d;
}

/** The refusal of a number that cannot be on WhatsApp (pt, like the spec's other form texts). */
export const INVALID_PHONE = "Número inválido para o WhatsApp";

/**
 * Why international digits cannot be a WhatsApp number, or null when they can: E.164 allows
 * 8 to 15 digits here; a Brazilian number is 55 + a two-digit area (11–99, no zero) + 8
 * digits, or 9 digits starting with 9; a North American one is 1 + an area and an exchange
 * that do not start with 0 or 1.
 */
export function phoneProblem(digits: string): string | null {
  const d = normalizeNumber(digits);
  if (d.length < 8 || d.length > 15) return INVALID_PHONE;
  if (d.startsWith("55")) {
    const ok = /^55[1-9][1-9](\d{8}|9\d{8})$/.test(d);
    return ok ? null : INVALID_PHONE;
  }
  if (d.startsWith("1")) return /^1[2-9]\d{2}[2-9]\d{6}$/.test(d) ? null : INVALID_PHONE;
  return null;
}
