/**
 * The countries the sign-up forms offer (spec 001 §9: default BR, options from a list),
 * as ISO 3166-1 alpha-2 codes: the stored `pais`. Names are not kept here; the browser
 * names each code in the viewer's language (Intl.DisplayNames), so the list needs no
 * translation tables.
 */

/** The default country of a sign-up. */
export const DEFAULT_COUNTRY = "BR";

/** Codes offered, Brazil and its neighbours first, then the usual markets. */
export const COUNTRY_CODES: readonly string[] = [
  "BR", "AR", "BO", "CL", "CO", "EC", "PY", "PE", "UY", "VE",
  "MX", "US", "CA", "PT", "ES", "FR", "DE", "IT", "GB", "AO", "MZ",
];
