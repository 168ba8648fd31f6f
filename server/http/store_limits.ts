/**
 * KV's own limits as a client's error (issue #24). A value over 64 KiB, a key over 2 KiB or an
 * atomic over 800 KiB / 1000 mutations is refused by KV with a plain TypeError, which would
 * answer 500. Input schemas bound every field so this should not happen; this is the safety
 * net for a field someone forgot: the request was too large to store, a 413 in the
 * catalogue's shape, and nothing was written (the refused commit is atomic).
 */
import { AppError } from "../../domain/errors.ts";

/** KV's messages for a write over its size limits (Deno 2: "Value too large (max 65536 bytes)"…). */
const KV_LIMIT_ERROR = /^(Value too large|Key too large|Total mutation size too large|Too many mutations)\b/;

/** The 413 for `error` when it (or its cause) is KV refusing a write over its limits. */
export function storeLimitError(error: unknown): AppError | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    if (!(e instanceof AppError) && KV_LIMIT_ERROR.test(e.message)) {
      return new AppError("ERR_VALIDATION", {
        status: 413,
        message: "The request holds a value too large to store; shorten the longest field",
        cause: e,
      });
    }
  }
  return undefined;
}
