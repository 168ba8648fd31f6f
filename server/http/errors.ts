/** Turns thrown errors into the JSON error body `{ error, message, fields }` (DESIGN §4). */
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { AppError } from "../../domain/errors.ts";

/** The app's `onError` handler. */
export function errorResponse(error: Error, c: Context): Response {
  if (error instanceof AppError) {
    return c.json(
      { error: error.code, message: error.message, fields: error.fields, ...error.extra },
      error.status as ContentfulStatusCode,
    );
  }
  if (error instanceof HTTPException) {
    return c.json({ error: "ERR_INTERNAL", message: error.message }, error.status);
  }
  console.error(`${c.req.method} ${c.req.path} failed`, error);
  return c.json({ error: "ERR_INTERNAL", message: "An error occurred!" }, 500);
}
