/**
 * Password recovery (spec 002 §2.15, §7), mounted at `/users`, no authentication:
 * - POST /users/sendemail {email}: mails a token when a user has that e-mail; the answer is
 *   the same either way (issue #38) and never carries the token.
 * - POST /users/checkToken {email, token}: step two's 'Token válido' / 'Token inválido…'.
 * - POST /users/updatePassword {email, token, password, confirmPassword}: uses the token up,
 *   sets the password and bumps the user's tokenVersion (every other session ends).
 * Why unknown e-mails are not told apart, and the limits: domain/password_reset.ts.
 */
import { type Context, Hono } from "hono";
import { consumeReset, hashResetToken, issueReset, resetValid } from "../../actors/platform/password_reset.ts";
import { findUserByEmail, platformSettings } from "../../actors/platform/lookup.ts";
import { updateUser } from "../../actors/platform/user_commands.ts";
import { AppError } from "../../domain/errors.ts";
import {
  newResetToken,
  RESET_LIMITS,
  RESET_TOKEN_TTL_MS,
  resetMail,
  ResetPasswordInput,
  ResetRequest,
  ResetTokenCheck,
} from "../../domain/password_reset.ts";
import type { User } from "../../domain/user.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { clientAddress } from "../auth/client_address.ts";
import { hashPassword } from "../auth/passwords.ts";
import { LoginThrottle } from "../auth/throttle.ts";
import { loginKeys, loginSucceeded } from "../auth/login_limits.ts";
import { parseBody } from "../http/validate.ts";
import { type Mailer, mailerFromSettings } from "../mail/mod.ts";
import { log } from "../../actors/_runtime/log.ts";

const invalidToken = () =>
  new AppError("ERR_INVALID_RESET_TOKEN", { status: 400, message: "Invalid or expired password reset token" });

/** Refuses with 429 (and Retry-After) when any of `checks` is over its limit at `now`. */
function assertUnderLimits(c: Context, checks: [LoginThrottle, string][], now: number): void {
  const wait = Math.max(...checks.map(([throttle, key]) => throttle.retryAfter(key, now)));
  if (wait <= 0) return;
  c.header("Retry-After", String(Math.ceil(wait / 1000)));
  throw new AppError("ERR_TOO_MANY_ATTEMPTS", { status: 429, message: "Too many password reset attempts, try again later" });
}

/** Issues a token for the user of `email` and mails it; nothing when no user has that e-mail. */
async function mailResetIfRegistered(deps: AppDeps, mailer: Mailer, email: string): Promise<void> {
  const user = await findUserByEmail(deps.system, email);
  if (!user) return;
  const token = newResetToken(crypto.getRandomValues(new Uint8Array(16)));
  await issueReset(deps.system, user.id, await hashResetToken(token));
  await mailer({ to: user.email, ...resetMail(user.name, token) });
}

/** The password recovery routes (mounted at `/users`). */
export function passwordResetRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // Limits of this app instance (one per server, like the login throttle in deps).
  const window = RESET_LIMITS.windowMs;
  const requests = new LoginThrottle(RESET_LIMITS.requestsPerAddress, window);
  const mails = new LoginThrottle(RESET_LIMITS.mailsPerEmail, window);
  const guessesByEmail = new LoginThrottle(RESET_LIMITS.guessesPerEmail, window);
  const guessesByAddress = new LoginThrottle(RESET_LIMITS.guessesPerAddress, window);

  /** The user whose token is being checked, after the guess limits; a wrong guess counts. */
  async function guessTarget(c: Context<AppEnv>, email: string, token: string) {
    const { system } = c.get("deps");
    const now = Date.now();
    const keys: [LoginThrottle, string][] = [[guessesByEmail, email], [guessesByAddress, clientAddress(c)]];
    assertUnderLimits(c, keys, now);
    const user = await findUserByEmail(system, email);
    const tokenHash = await hashResetToken(token);
    const wrong = () => {
      for (const [throttle, key] of keys) throttle.fail(key, now);
      return invalidToken();
    };
    return { user, tokenHash, wrong };
  }

  app.post("/sendemail", async (c) => {
    const deps = c.get("deps");
    const now = Date.now();
    const address = clientAddress(c);
    assertUnderLimits(c, [[requests, address]], now);
    requests.fail(address, now);
    const { email } = await parseBody(c, ResetRequest);
    // Everything the caller can observe (status, body, limits, time) is the same whether the
    // e-mail is registered or not: the lookup, the token and the mail happen after the answer.
    const mailer = mailerFromSettings(await platformSettings(deps.system), deps.config);
    if (!mailer) {
      throw new AppError("ERR_EMAIL_NOT_CONFIGURED", { status: 503, message: "No e-mail provider is configured" });
    }
    assertUnderLimits(c, [[mails, email]], now);
    mails.fail(email, now);
    mailResetIfRegistered(deps, mailer, email).catch((error) =>
      log.error(`Password reset mail was not sent: ${error instanceof Error ? error.message : error}`)
    );
    return c.json({ sent: true, expiresAt: new Date(now + RESET_TOKEN_TTL_MS).toISOString() });
  });

  app.post("/checkToken", async (c) => {
    const { email, token } = await parseBody(c, ResetTokenCheck);
    const { user, tokenHash, wrong } = await guessTarget(c, email, token);
    if (!user || !(await resetValid(c.get("deps").system, user.id, tokenHash))) throw wrong();
    return c.json({ valid: true });
  });

  app.post("/updatePassword", async (c) => {
    const deps = c.get("deps");
    const input = await parseBody(c, ResetPasswordInput);
    const { user, tokenHash, wrong } = await guessTarget(c, input.email, input.token);
    // Checked and used up in one step (two requests with one token cannot both pass), and
    // only then the (slow) password hash: a wrong guess costs no hashing.
    if (!user || !(await consumeReset(deps.system, user.id, tokenHash))) throw wrong();
    const passwordHash = await hashPassword(input.password, deps.config.passwordHash);
    const updated: User = await updateUser(deps.system, null, user.id, { passwordHash });
    // A user locked out by failed logins may sign in with the new password at once.
    await loginSucceeded(deps.throttle, loginKeys(updated.email, clientAddress(c)));
    guessesByEmail.succeed(updated.email);
    return c.json({ updated: true });
  });

  return app;
}
