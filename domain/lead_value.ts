/**
 * Kanban lead values (spec 002 §2.10, §9): a lane's lead value is the sum of its cards'
 * contact extra-info values named 'Valor do Lead'. People type those values by hand, so the
 * parser reads the forms a Brazilian user writes: 'R$ 1.234,56', '1234,56', '1.234' and also
 * the dotted decimal '1234.56'.
 *
 * Reading of the separators (the spec shows none; ours):
 * - both '.' and ',' present: the one written last is the decimal separator;
 * - only ',': decimal when it appears once ('1,5', '1234,56'), else thousands ('1,234,567');
 * - only '.': thousands when every group after a dot has exactly three digits ('1.234',
 *   '1.234.567'), else decimal ('1234.56', '12.5').
 * Anything else (letters left after the currency, two decimal separators) is not a number.
 */

/** The extra-info name whose values a lane sums (spec 002 §9). */
export const LEAD_VALUE_FIELD = "Valor do Lead";

/** The number a person wrote in `text`, or null when it is not one. */
export function parseLeadValue(text: string | null | undefined): number | null {
  if (typeof text !== "string") return null;
  // Currency marks and every kind of space (a pasted 'R$ 1.234,56' often has a no-break one).
  let s = text.replace(/R\$|BRL|\$/gi, "").replace(/[\s\u00a0\u202f]/g, "");
  let sign = 1;
  if (s.startsWith("-")) {
    sign = -1;
    s = s.slice(1);
  }
  if (!/^\d[\d.,]*$/.test(s) || /[.,]$/.test(s)) return null;
  const lastDot = s.lastIndexOf(".");
  const lastComma = s.lastIndexOf(",");
  let decimal: "." | "," | null = null;
  if (lastDot >= 0 && lastComma >= 0) decimal = lastDot > lastComma ? "." : ",";
  else if (lastComma >= 0) decimal = s.indexOf(",") === lastComma ? "," : null;
  else if (lastDot >= 0) decimal = /^\d{1,3}(\.\d{3})+$/.test(s) ? null : ".";
  const thousands = decimal === null ? (lastComma >= 0 ? "," : ".") : decimal === "." ? "," : ".";
  const [whole, fraction, extra] = s.split(decimal ?? "\u0000");
  if (extra !== undefined) return null;
  const groups = whole.split(thousands);
  // Thousands groups after the first have three digits ('1.23,4' is no number).
  if (groups.length > 1 && (groups[0].length > 3 || groups.slice(1).some((g) => g.length !== 3))) return null;
  const value = Number(`${groups.join("")}${fraction === undefined ? "" : `.${fraction}`}`);
  return Number.isFinite(value) ? sign * value : null;
}

/** A contact's extra-info entry. */
export interface ExtraInfoEntry {
  name: string;
  value: string;
}

/** The lead value of one contact: its 'Valor do Lead' entries summed (unreadable ones skipped). */
export function leadValueOf(extraInfo: readonly ExtraInfoEntry[] | null | undefined): number {
  let cents = 0;
  for (const entry of extraInfo ?? []) {
    if (entry.name.trim().toLowerCase() !== LEAD_VALUE_FIELD.toLowerCase()) continue;
    const value = parseLeadValue(entry.value);
    if (value !== null) cents += Math.round(value * 100);
  }
  return cents / 100;
}

/**
 * The lead value of a lane: its cards' contacts' values summed in whole cents, so fifty
 * cards of 0,10 make 5,00 and not 5.000000000000001.
 */
export function laneLeadValue(contacts: Iterable<readonly ExtraInfoEntry[] | null | undefined>): number {
  let cents = 0;
  for (const extraInfo of contacts) cents += Math.round(leadValueOf(extraInfo) * 100);
  return cents / 100;
}
