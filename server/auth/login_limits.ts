/**
 * Who may try a password, and how fast (issue #24): brute force is kept out without handing
 * anyone the power to lock others out.
 *
 * - Hard limit per (e-mail, address) pair: `pairMax` failures in the window refuse that pair
 *   (429). Only someone guessing one account from one place meets it.
 * - Per e-mail, a growing delay instead of a refusal: after `emailFreeFailures` failures from
 *   anywhere, each attempt on that e-mail waits `emailBaseDelayMs`, doubling per failure up
 *   to `emailMaxDelayMs`, before its password is checked. A stranger who knows the e-mail
 *   can slow its owner down by seconds, never lock them out.
 * - Per address, a ceiling far above any office's typos (`addressMax`), against one address
 *   spraying many accounts; an office behind one NAT does not reach it by mistake.
 * - A known device (device_cookie.ts, a browser that already signed in as that user) skips
 *   the e-mail delay and the address ceiling, and its failures count only for its pair: the
 *   owner's own typos on their own browser slow down nobody else.
 *
 * Failure logs live in the app's FailureLog, all with its 15-minute window: in KV
 * (throttle_kv.ts), so a restart or a second process on the same store keeps every count.
 */
import type { FailureLog } from "./throttle.ts";

export interface LoginLimits {
  pairMax: number;
  addressMax: number;
  emailFreeFailures: number;
  emailBaseDelayMs: number;
  emailMaxDelayMs: number;
}

export const LOGIN_LIMITS: LoginLimits = {
  pairMax: 10,
  addressMax: 100,
  emailFreeFailures: 3,
  emailBaseDelayMs: 500,
  emailMaxDelayMs: 8_000,
};

/** The throttle keys of one attempt. */
export interface LoginKeys {
  pair: string;
  email: string;
  address: string;
}

export function loginKeys(email: string, address: string): LoginKeys {
  return { pair: `pair:${email}|${address}`, email: `email:${email}`, address: `addr:${address}` };
}

/** Milliseconds until this attempt may be made, or 0 when it may be made now (then it may still be delayed). */
export async function loginRefusal(
  throttle: FailureLog,
  keys: LoginKeys,
  knownDevice: boolean,
  now: number,
  limits: LoginLimits = LOGIN_LIMITS,
): Promise<number> {
  const pair = await throttle.retryAfter(keys.pair, now, limits.pairMax);
  const address = knownDevice ? 0 : await throttle.retryAfter(keys.address, now, limits.addressMax);
  return Math.max(pair, address);
}

/** How long this attempt waits before its password is checked (0 for a known device). */
export async function loginDelay(
  throttle: FailureLog,
  keys: LoginKeys,
  knownDevice: boolean,
  now: number,
  limits: LoginLimits = LOGIN_LIMITS,
): Promise<number> {
  if (knownDevice) return 0;
  const over = await throttle.count(keys.email, now) - limits.emailFreeFailures;
  if (over < 0) return 0;
  return Math.min(limits.emailMaxDelayMs, limits.emailBaseDelayMs * 2 ** over);
}

/** Counts one wrong password (or unknown e-mail). */
export async function loginFailed(throttle: FailureLog, keys: LoginKeys, knownDevice: boolean, now: number): Promise<void> {
  await throttle.fail(keys.pair, now);
  if (knownDevice) return;
  await throttle.fail(keys.email, now);
  await throttle.fail(keys.address, now);
}

/**
 * A right password clears the e-mail's delay and its pair; the address keeps its count, so
 * one good login cannot wipe the failures other accounts collected there.
 */
export async function loginSucceeded(throttle: FailureLog, keys: LoginKeys): Promise<void> {
  await throttle.succeed(keys.pair);
  await throttle.succeed(keys.email);
}
