/**
 * The sign-up's country choices (spec 001 §9: default BR, options from a list): the
 * Portuguese- and Spanish-speaking countries and the US, named in the page's language by
 * the browser's own Intl.DisplayNames (no name lists to translate).
 */
import type { Choice } from "../ui/form.tsx";

const CODES = ["BR", "PT", "AO", "MZ", "AR", "BO", "CL", "CO", "EC", "ES", "MX", "PE", "PY", "UY", "VE", "US"] as const;

/** The country choices, labelled in `lang`. */
export function countryChoices(lang: string): Choice<string>[] {
  let names: Intl.DisplayNames | undefined;
  try {
    names = new Intl.DisplayNames([lang], { type: "region" });
  } catch {
    names = undefined;
  }
  return CODES.map((code) => ({ value: code, label: names?.of(code) ?? code }));
}
