/**
 * A sliding-window log of failures per key: after `max` failures inside `windowMs`, the key
 * must wait until the oldest one leaves the window. `FailureLog` is what the login policy
 * (login_limits.ts) and sign-up read and write: the app's is `KvThrottle` (throttle_kv.ts,
 * shared by every process of the store, kept across restarts). `LoginThrottle` is the same
 * log in this process's memory, for password recovery's short-lived limiters and unit tests.
 * Neither is a module global: each is owned by whoever made it.
 */

/** A failure log by key, in memory (sync) or in KV (async). */
export interface FailureLog {
  readonly windowMs: number;
  /** Milliseconds until `key` may try again under `max` failures, or 0 when it may now. */
  retryAfter(key: string, now: number, max?: number): number | Promise<number>;
  /** How many failures of `key` are inside the window at `now`. */
  count(key: string, now: number): number | Promise<number>;
  /** Records one failed attempt of `key`. */
  fail(key: string, now: number): void | Promise<void>;
  /** Forgets the failures of `key` (after a successful attempt). */
  succeed(key: string): void | Promise<void>;
}

/** The failure times of `list` still inside the window at `now`. */
export function inWindow(list: readonly number[], now: number, windowMs: number): number[] {
  return list.filter((t) => now - t < windowMs);
}

/** Milliseconds until fewer than `max` of the `recent` failures (oldest first) are in the window. */
export function waitFor(recent: readonly number[], now: number, max: number, windowMs: number): number {
  return recent.length >= max ? recent[recent.length - max] + windowMs - now : 0;
}

/** The in-memory failure log (see the module doc). */
export class LoginThrottle implements FailureLog {
  #failures = new Map<string, number[]>();
  constructor(
    readonly max = 10,
    readonly windowMs = 15 * 60_000,
    /** Above this many keys, expired ones are swept (random e-mails must not grow memory). */
    readonly maxKeys = 10_000,
  ) {}

  /** How many keys have failures on record (for metrics and tests). */
  get size(): number {
    return this.#failures.size;
  }

  /** Milliseconds until `key` may try again under `max` failures, or 0 when it may now. */
  retryAfter(key: string, now: number, max = this.max): number {
    return waitFor(this.#recent(key, now), now, max, this.windowMs);
  }

  /** How many failures of `key` are inside the window at `now`. */
  count(key: string, now: number): number {
    return this.#recent(key, now).length;
  }

  /** Records one failed attempt of `key`. */
  fail(key: string, now: number): void {
    const recent = this.#recent(key, now);
    recent.push(now);
    this.#failures.set(key, recent);
    if (this.#failures.size > this.maxKeys) this.#sweep(now);
  }

  /** Forgets the failures of `key` (after a successful attempt). */
  succeed(key: string): void {
    this.#failures.delete(key);
  }

  #sweep(now: number): void {
    for (const key of [...this.#failures.keys()]) this.#recent(key, now);
  }

  #recent(key: string, now: number): number[] {
    const list = inWindow(this.#failures.get(key) ?? [], now, this.windowMs);
    if (list.length === 0) this.#failures.delete(key);
    return list;
  }
}
