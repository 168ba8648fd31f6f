/**
 * Parsing of request bodies and queries with the zod schemas of `domain/`. A failure is a
 * 400 `{ error: "ERR_VALIDATION", message, fields }` whose texts are the schema's own
 * messages (the spec's 'Too Short!', 'Invalid email'…).
 */
import type { Context } from "hono";
import type { z } from "zod";
import { AppError } from "../../domain/errors.ts";

/** Turns zod issues into the error body's `fields` map and first message. */
export function validationError(error: z.ZodError): AppError {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const path = issue.path.join(".") || "_";
    fields[path] ??= issue.message;
  }
  const first = error.issues[0];
  const where = first?.path.length ? `${first.path.join(".")}: ` : "";
  return new AppError("ERR_VALIDATION", {
    status: 400,
    message: `${where}${first?.message ?? "Invalid input"}`,
    fields,
  });
}

/** Parses `value` or throws the 400 validation error. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error);
  return result.data;
}

/**
 * The JSON object a request body's text holds (`{}` for an empty text). Every body of the API
 * is an object: a bare string, number, null or array is refused with a 400 here, once for all
 * routes, because a patch handler that spreads it over a stored record would read it as "no
 * change" (or a string as its characters) and answer 200.
 */
export function jsonObjectOf(text: string): Record<string, unknown> {
  if (!text.trim()) return {};
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new AppError("ERR_VALIDATION", { status: 400, message: "Body is not valid JSON" });
  }
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw new AppError("ERR_VALIDATION", { status: 400, message: "Body must be a JSON object" });
  }
  return raw as Record<string, unknown>;
}

/** Parses the JSON (or form) body; an empty body counts as `{}` for the schema to judge. */
export async function parseBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  const type = c.req.header("content-type") ?? "";
  const raw = type.includes("multipart/form-data") || type.includes("application/x-www-form-urlencoded")
    ? await c.req.parseBody({ all: true })
    : jsonObjectOf(await c.req.text());
  return parseWith(schema, raw);
}

/** Parses the query string (repeated keys become arrays). */
export function parseQuery<S extends z.ZodType>(c: Context, schema: S): z.infer<S> {
  const all = c.req.queries();
  const flat: Record<string, string | string[]> = {};
  for (const [key, values] of Object.entries(all)) {
    const name = key.endsWith("[]") ? key.slice(0, -2) : key;
    flat[name] = values.length === 1 && !key.endsWith("[]") ? values[0] : values;
  }
  return parseWith(schema, flat);
}

/** Parses a numeric path parameter; a non-number is treated as a record that does not exist. */
export function idParam(c: Context, name: string, missing: () => AppError): number {
  const value = Number(c.req.param(name));
  if (!Number.isSafeInteger(value) || value <= 0) throw missing();
  return value;
}
