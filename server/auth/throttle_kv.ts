/**
 * The app's failure log (throttle.ts `FailureLog`) in KV: one entry per key holding its recent
 * failure times, written with `expireIn` = the window, so a key nobody fails again leaves the
 * store by itself (no sweep) and the store never holds more than the window's failures.
 *
 * Why KV and not this process's memory (issue #24): DESIGN §1 runs one process, but a restart
 * (a deploy, a crash) would hand a brute-forcer a fresh budget, and §10's several processes on
 * one shared store would each keep its own count, multiplying every limit by their number;
 * nothing may assume the process is alone in a way that breaks when it is not. The cost is
 * small beside the password hash every attempt pays: a read per limit checked, and one
 * read-check-write per key on a failure (retried when another attempt wrote the key first).
 */
import { type FailureLog, inWindow, waitFor } from "./throttle.ts";

/** Failure times kept per key: at least the largest limit read (LOGIN_LIMITS.addressMax, 100). */
const KEEP = 128;

/** Writes raced by other attempts on the same key before one gives up (each retry rereads). */
const MAX_RETRIES = 20;

export class KvThrottle implements FailureLog {
  constructor(
    readonly kv: Deno.Kv,
    readonly max = 10,
    readonly windowMs = 15 * 60_000,
  ) {}

  /** Milliseconds until `key` may try again under `max` failures, or 0 when it may now. */
  async retryAfter(key: string, now: number, max = this.max): Promise<number> {
    if (max > KEEP) throw new Error(`Login throttle keeps ${KEEP} failures per key; a limit of ${max} would never refuse`);
    return waitFor(await this.#recent(key, now), now, max, this.windowMs);
  }

  /** How many failures of `key` are inside the window at `now` (at most KEEP). */
  async count(key: string, now: number): Promise<number> {
    return (await this.#recent(key, now)).length;
  }

  /** Records one failed attempt of `key`. */
  async fail(key: string, now: number): Promise<void> {
    for (let attempt = 0; attempt < MAX_RETRIES; attempt++) {
      const entry = await this.kv.get<number[]>(storeKey(key));
      // Kept oldest first (waitFor reads it so), whatever order concurrent attempts land in.
      const recent = [...inWindow(entry.value ?? [], now, this.windowMs), now].sort((x, y) => x - y).slice(-KEEP);
      const { ok } = await this.kv.atomic().check(entry).set(storeKey(key), recent, { expireIn: this.windowMs }).commit();
      if (ok) return;
    }
    throw new Error(`Login throttle: ${MAX_RETRIES} concurrent writes on one key`);
  }

  /** Forgets the failures of `key` (after a successful attempt). */
  async succeed(key: string): Promise<void> {
    await this.kv.delete(storeKey(key));
  }

  async #recent(key: string, now: number): Promise<number[]> {
    const { value } = await this.kv.get<number[]>(storeKey(key));
    return inWindow(value ?? [], now, this.windowMs);
  }
}

function storeKey(key: string): Deno.KvKey {
  return ["login_throttle", key];
}
