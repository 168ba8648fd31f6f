/**
 * The current password a user gives to change their own password or e-mail (issue #38): with
 * only a stolen access token, an account cannot be made the thief's for good. Guesses count
 * in the login throttle's pair limit for that user and the caller's address (login_limits.ts),
 * so a token is no faster a way to guess the password than the login form.
 */
import type { Context } from "hono";
import { AppError } from "../../domain/errors.ts";
import { USER_MSG } from "../../domain/user.ts";
import type { AppEnv } from "../deps.ts";
import { clientAddress } from "./client_address.ts";
import { LOGIN_LIMITS, loginFailed, loginKeys, loginRefusal } from "./login_limits.ts";
import { verifyPassword } from "./passwords.ts";

const fieldError = (message: string) =>
  new AppError("ERR_VALIDATION", { status: 400, message: `currentPassword: ${message}`, fields: { currentPassword: message } });

/** Throws unless `given` is the password of `user` (400 on the field, 429 past the limit). */
export async function assertCurrentPassword(
  c: Context<AppEnv>,
  user: { email: string; passwordHash: string },
  given: string | undefined,
): Promise<void> {
  if (!given) throw fieldError(USER_MSG.currentPasswordRequired);
  const { throttle, config } = c.get("deps");
  const keys = loginKeys(user.email, clientAddress(c));
  const wait = await loginRefusal(throttle, keys, true, Date.now(), { ...LOGIN_LIMITS, ...config.loginLimits });
  if (wait > 0) {
    c.header("Retry-After", String(Math.ceil(wait / 1000)));
    throw new AppError("ERR_TOO_MANY_ATTEMPTS", { status: 429, message: "Too many wrong passwords, try again later" });
  }
  if (await verifyPassword(user.passwordHash, given)) return;
  await loginFailed(throttle, keys, true, Date.now());
  throw fieldError(USER_MSG.currentPasswordWrong);
}
