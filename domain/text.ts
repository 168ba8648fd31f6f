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

/**
 * Upper bounds of free input (issue #24). KV stores at most 64 KiB per value, so a field
 * without a max let one request fail its write with a 500; these keep every record far below
 * that, with the spec's 'Too Long!'. A message is WhatsApp's 4096 characters.
 */
export const MAX = {
  name: 200,
  shortText: 50,
  message: 4096,
  longText: 10_000,
  secret: 2048,
  url: 2048,
  /** Items of an id list (queues of a user or a connection). */
  list: 1000,
  /** Custom fields of a record (a contact's extra info). */
  fields: 100,
  /** A phone number as typed, before its digits are kept (spaces, dashes, brackets, +). */
  phone: 100,
  /** An e-mail address (RFC 5321's path limit). */
  email: 254,
  /** A password or token as typed at login or recovery: over any the forms let anyone set. */
  credential: 255,
  /** A date or date-time as text (ISO 8601, or Date's own "Thu Nov 26 2026 … (zone name)"). */
  date: 100,
} as const;

/** A required string of `min` to `max` characters after trimming, with the spec's texts. */
export function sized(min: number, max: number) {
  return z.string({ error: MSG.required }).trim().min(1, MSG.required).min(min, MSG.tooShort).max(
    max,
    MSG.tooLong,
  );
}

/** A required, valid, lower-cased e-mail address. */
export const Email = z.string({ error: MSG.required }).trim().min(1, MSG.required).max(MAX.email, MSG.tooLong)
  .toLowerCase().pipe(z.email(MSG.invalidEmail));

/** A valid e-mail address as an optional field takes it (beside "" for none). */
export const EmailAddress = z.email(MSG.invalidEmail).max(MAX.email, MSG.tooLong);

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

/** Whether `text` is an absolute http(s) URL (what may become a link's href or a fetched address). */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}
