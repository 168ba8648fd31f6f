/**
 * Validation texts shared by schemas on server and client. The spec's forms use the
 * Yup-style English texts ('Too Short!', 'Too Long!', 'Required', 'Invalid email');
 * they are keys the UI translates, and what the API returns.
 */
import { z } from "zod";

export const MSG = {
  required: "Required",
  tooShort: "Too Short!",
  tooLong: "Too Long!",
  invalidEmail: "Invalid email",
  obrigatorio: "Obrigatório",
} as const;

/** A required string of `min` to `max` characters after trimming, with the spec's texts. */
export function sized(min: number, max: number) {
  return z.string({ error: MSG.required }).trim().min(1, MSG.required).min(min, MSG.tooShort).max(
    max,
    MSG.tooLong,
  );
}

/** A required, valid, lower-cased e-mail address. */
export const Email = z.string({ error: MSG.required }).trim().min(1, MSG.required).toLowerCase()
  .pipe(z.email(MSG.invalidEmail));

/** A positive integer id, also accepted as a numeric string (query strings, form fields). */
export const Id = z.coerce.number().int().positive();

/** An optional id where `null`, `""` and `0` all mean "none". */
export const OptionalId = z.preprocess(
  (v) => (v === "" || v === 0 || v === "0" || v === undefined ? null : v),
  z.coerce.number().int().positive().nullable(),
);

/** A boolean that also accepts "true"/"false"/"1"/"0" (query strings, form fields). */
export const Flag = z.preprocess(
  (v) => (v === "true" || v === "1" ? true : v === "false" || v === "0" ? false : v),
  z.boolean(),
);
