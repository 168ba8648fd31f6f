/**
 * A route's parsed query strings, remembered (issue #23 §2). Inboxes poll the same few list
 * URLs over and over, and the zod parse of a list query was a tenth of a list request's time;
 * the parse is a pure function of the query string, so the last `size` results are kept by
 * that string (oldest forgotten first). A refused query is not kept: it throws every time.
 * The results are frozen because requests share them.
 */
import type { Context } from "hono";
import type { z } from "zod";
import { parseQuery } from "./validate.ts";

/** A `parseQuery` for one schema that answers a query string seen before from memory. */
export function memoizedQuery<S extends z.ZodType>(schema: S, size = 256): (c: Context) => Readonly<z.infer<S>> {
  const seen = new Map<string, Readonly<z.infer<S>>>();
  return (c) => {
    const url = c.req.url;
    const at = url.indexOf("?");
    const search = at < 0 ? "" : url.slice(at + 1);
    const kept = seen.get(search);
    if (kept !== undefined) return kept;
    const parsed = Object.freeze(parseQuery(c, schema));
    if (seen.size >= size) seen.delete(seen.keys().next().value!);
    seen.set(search, parsed);
    return parsed;
  };
}
