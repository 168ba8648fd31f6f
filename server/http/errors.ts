/** Turns thrown errors into the JSON error body `{ error, message, fields }` (DESIGN §4). */
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { AppError } from "../../domain/errors.ts";
import { isStoreUnavailable, storeUnavailable } from "../../actors/_runtime/store_errors.ts";
import { storeLimitError } from "./store_limits.ts";
import { type Logger, log as processLog } from "../../actors/_runtime/log.ts";

/** Seconds a client is told to wait before retrying a write the store refused. */
const STORE_RETRY_AFTER_S = 5;

/** The app's `onError` handler. */
export function errorResponse(error: Error, c: Context): Response {
  // The request's logger: its lines carry the request id, route and company (request_log.ts).
  const log: Logger = (c.get("log") as Logger | undefined) ?? processLog;
  // A write the store refused (a full disk…) outside the actors' committer, which already
  // turns its own into this error: the same 503, never a 500 (actors/_runtime/store_errors.ts).
  if (!(error instanceof AppError) && isStoreUnavailable(error)) {
    log.error(`${c.req.method} ${c.req.path}: the store refused a write`, { error });
    error = storeUnavailable(error);
  }
  // A write over KV's own size limits (a field without a max): a 413, never a 500.
  const tooLarge = error instanceof AppError ? undefined : storeLimitError(error);
  if (tooLarge) {
    log.warn(`${c.req.method} ${c.req.path}: a value over the store's limits (a schema misses a max)`, { error: error.message });
    error = tooLarge;
  }
  if (error instanceof AppError) {
    if (error.code === "ERR_STORE_UNAVAILABLE") c.header("Retry-After", String(STORE_RETRY_AFTER_S));
    // A company another process holds or takes (issue #35): the router sends the request on
    // to it (server/cluster/router.ts), or the client tries again in a second.
    if (error.code === "ERR_COMPANY_MOVED") {
      c.header("Retry-After", "1");
      const companyId = error.extra?.companyId;
      if (typeof companyId === "number") c.header("x-balcao-moved-company", String(companyId));
    }
    return c.json(
      { error: error.code, message: error.message, fields: error.fields, ...error.extra },
      error.status as ContentfulStatusCode,
    );
  }
  if (error instanceof HTTPException) {
    return c.json({ error: "ERR_INTERNAL", message: error.message }, error.status);
  }
  log.error(`${c.req.method} ${c.req.path} failed`, { error });
  return c.json({ error: "ERR_INTERNAL", message: "An error occurred!" }, 500);
}
