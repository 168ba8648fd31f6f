/**
 * A sliding-window log of failures per key: after `max` failures inside `windowMs`, the key
 * must wait until the oldest one leaves the window. The login policy (login_limits.ts) keeps
 * its pair, e-mail and address counts here with limits of its own; sign-up and password
 * recovery use it as a plain limiter. Owned by the app's deps (one per process), not a
 * module global.
 */
export class LoginThrottle {
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
    const recent = this.#recent(key, now);
    return recent.length >= max ? recent[recent.length - max] + this.windowMs - now : 0;
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
    const list = (this.#failures.get(key) ?? []).filter((t) => now - t < this.windowMs);
    if (list.length === 0) this.#failures.delete(key);
    return list;
  }
}
