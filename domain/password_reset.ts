/**
 * Password recovery (spec 002 §2.15, §5, §7, §8): e-mail → token → new password.
 *
 * The spec's client asks the server for the token and compares it itself, which would let
 * anyone reset anyone's password. Here the server mails the token and never returns it,
 * keeps only its SHA-256 (with the user id), accepts it for 30 minutes and once, and
 * throttles requests and guesses per e-mail and per client address.
 *
 * Unknown e-mails (issue #38): the answer is the same as for a registered one, status and
 * body, and so are the limits; the lookup, the token and the mail happen after it, so its
 * timing says nothing either. The spec's 'E-mail não cadastrado' is therefore never shown:
 * it told anyone which addresses have an account (sign-up's duplicate e-mail refusal still
 * does, throttled per address). The spec's separate
 * POST /users/findByEmail is folded into the mail request, so there is no lookup beside it.
 * Every request counts against the client address (RESET_LIMITS.requestsPerAddress) and
 * against the e-mail (mailsPerEmail), registered or not.
 *
 * The token is 8 characters of a 31-symbol alphabet (no 0/O, 1/I/L): 31^8 ≈ 8.5·10^11
 * values against at most RESET_LIMITS.guessesPerEmail guesses per window and a 30-minute
 * life, so guessing is hopeless; it is short enough to type from a phone.
 */
import { z } from "zod";
import { Email, MAX, MSG } from "./text.ts";

/** How long a mailed token is accepted. */
export const RESET_TOKEN_TTL_MS = 30 * 60_000;

/** Characters of a token (unambiguous when read from an e-mail). */
export const RESET_TOKEN_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
/** Characters in a token. */
export const RESET_TOKEN_LENGTH = 8;

/** Throttle limits, each per 15-minute window (the login throttle's window). */
export const RESET_LIMITS = {
  windowMs: 15 * 60_000,
  /** Reset requests from one client address, whether the e-mail exists or not. */
  requestsPerAddress: 10,
  /** Mails sent to one address: a stranger cannot flood a user's inbox. */
  mailsPerEmail: 3,
  /** Wrong tokens for one e-mail, from anywhere. */
  guessesPerEmail: 10,
  /** Wrong tokens from one client address, for any e-mail. */
  guessesPerAddress: 20,
} as const;

/** The stored reset of one user: only the token's hash. `id` is the user id. */
export const PasswordReset = z.object({
  id: z.number(),
  tokenHash: z.string(),
  expiresAt: z.number(),
  createdAt: z.number(),
});
export type PasswordReset = z.infer<typeof PasswordReset>;

/** A token as typed: spaces and dashes dropped, upper case (the mail groups it as XXXX-XXXX). */
export function normalizeToken(token: string): string {
  return token.replace(/[\s-]/g, "").toUpperCase();
}

const Token = z.string({ error: MSG.required }).max(MAX.credential, MSG.tooLong).transform(normalizeToken).pipe(
  z.string().min(1, MSG.required).max(64, MSG.tooLong),
);
const NewPassword = z.string({ error: MSG.required }).min(5, MSG.tooShort).max(50, MSG.tooLong);

/** POST /users/sendemail body: step one. */
export const ResetRequest = z.object({ email: Email });
export type ResetRequest = z.infer<typeof ResetRequest>;

/** POST /users/checkToken body: step two (checks without using the token up). */
export const ResetTokenCheck = z.object({ email: Email, token: Token });
export type ResetTokenCheck = z.infer<typeof ResetTokenCheck>;

/** The spec's text when the two new passwords differ (002 §5); the UI translates it. */
export const PASSWORDS_DIFFER = "As novas senhas não são iguais";

/** POST /users/updatePassword body: step three (uses the token up). */
export const ResetPasswordInput = z.object({
  email: Email,
  token: Token,
  password: NewPassword,
  confirmPassword: z.string({ error: MSG.required }).min(1, MSG.required).max(MAX.credential, MSG.tooLong),
}).refine((v) => v.password === v.confirmPassword, { message: PASSWORDS_DIFFER, path: ["confirmPassword"] });
export type ResetPasswordInput = z.infer<typeof ResetPasswordInput>;

/** A new token from `random` bytes (one byte per character; 256 % 31 bias is negligible here). */
export function newResetToken(random: Uint8Array): string {
  if (random.length < RESET_TOKEN_LENGTH) throw new Error(`newResetToken needs ${RESET_TOKEN_LENGTH} random bytes`);
  let token = "";
  for (let i = 0; i < RESET_TOKEN_LENGTH; i++) token += RESET_TOKEN_ALPHABET[random[i] % RESET_TOKEN_ALPHABET.length];
  return token;
}

/** Whether a stored reset still accepts a token with hash `tokenHash` at `now`. */
export function resetAccepts(reset: PasswordReset | undefined, tokenHash: string, now: number): boolean {
  return !!reset && now < reset.expiresAt && sameText(reset.tokenHash, tokenHash);
}

/** Compares two strings in time that depends only on their length (no early exit). */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** The recovery mail's subject and bodies (Portuguese, the product's default language). */
export function resetMail(name: string, token: string): { subject: string; text: string; html: string } {
  const shown = `${token.slice(0, 4)}-${token.slice(4)}`;
  const minutes = RESET_TOKEN_TTL_MS / 60_000;
  const text = `Olá, ${name}!\n\nUse este código para redefinir sua senha: ${shown}\n\n` +
    `Ele vale por ${minutes} minutos e pode ser usado uma única vez. ` +
    `Se você não pediu a recuperação de senha, ignore este e-mail.`;
  const html = `<p>Olá, ${escapeHtml(name)}!</p><p>Use este código para redefinir sua senha:</p>` +
    `<p style="font-size:24px;font-weight:bold;letter-spacing:2px">${shown}</p>` +
    `<p>Ele vale por ${minutes} minutos e pode ser usado uma única vez. ` +
    `Se você não pediu a recuperação de senha, ignore este e-mail.</p>`;
  return { subject: "Recuperação de senha", text, html };
}

/** `text` safe inside an e-mail's HTML (the mails of domain/ share it). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
