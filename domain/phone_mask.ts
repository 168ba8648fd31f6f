/**
 * The international phone mask of the connections table (spec 001 §2.1, §9). Only the
 * lengths the spec names are formatted: 12 digits (country, area, 8-digit landline) and 13
 * digits (country, area, 9-digit mobile); anything shorter or longer is shown as stored, so
 * a number we cannot read is never mangled. Country code 55 is the default of the spec's
 * input mask; a stored number already carries its country code, so it is not added here.
 */

/** `+CC (AA) NNNN-NNNN` for 12 digits, `+CC (AA) NNNNN-NNNN` for 13, else the number as stored; "" when none. */
export function formatPhone(number: string | null | undefined): string {
  const raw = (number ?? "").trim();
  const digits = raw.replace(/\D/g, "");
  if (digits.length !== 12 && digits.length !== 13) return raw;
  const cc = digits.slice(0, 2);
  const area = digits.slice(2, 4);
  const local = digits.slice(4);
  const split = local.length - 4;
  return `+${cc} (${area}) ${local.slice(0, split)}-${local.slice(split)}`;
}
