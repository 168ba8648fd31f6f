/**
 * What a refused KV write means to a client. KV throws the same TypeError class for a write it
 * could never take (a key or value over its limits, which the committer measures units to
 * avoid) and for a store that cannot write now: a full disk ("database or disk is full"), a
 * locked or read-only file, an I/O error. The first is a bug and
 * stays a 500; the second is the store being unavailable, a 503 `ERR_STORE_UNAVAILABLE`, and
 * the same write succeeds once the store takes writes again (issue #24). The committer and the
 * HTTP error handler both ask `isStoreUnavailable`.
 */
import { AppError } from "../../domain/errors.ts";

/**
 * KV's and SQLite's messages for a store that cannot write now. Matched by message because KV
 * gives no other mark; an error not named here stays what it was (a 500 that gets looked at).
 */
const UNAVAILABLE_ERROR =
  /database or disk is full|disk i\/o error|database is locked|readonly database|unable to open database|no space left on device|KV atomic commit was refused/i;

/** The 503 every refused write answers with; `cause` keeps KV's own error for the log. */
export function storeUnavailable(cause?: unknown): AppError {
  return new AppError("ERR_STORE_UNAVAILABLE", {
    status: 503,
    message: "The store is not accepting writes right now; nothing was saved, try again shortly",
    cause,
  });
}

/** Whether `error` is already, or plainly is, a store that cannot write now. */
export function isStoreUnavailable(error: unknown): boolean {
  if (error instanceof AppError) return error.code === "ERR_STORE_UNAVAILABLE";
  return error instanceof Error && UNAVAILABLE_ERROR.test(error.message);
}

/**
 * The error a write unit KV refused settles with: the store being unavailable as the 503 error,
 * anything else (a limit, a value that cannot be stored) as KV said it.
 */
export function commitRefusal(error: unknown): unknown {
  return !(error instanceof AppError) && isStoreUnavailable(error) ? storeUnavailable(error) : error;
}
