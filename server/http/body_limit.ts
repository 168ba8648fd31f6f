/**
 * How big a request body may be (issue #24): 1 MB for JSON, forms and text, which is more than
 * any form of the product sends, so a 5 MB body is refused before anything parses it (a schema
 * with only optional fields would otherwise strip the unknown field and write the rest). The
 * routes that legitimately carry media inside JSON (the simulated phone's base64 media, the
 * providers' webhooks) get 32 MB, and multipart uploads 128 MB in all; each upload route
 * still checks its own per-file limit. Over the limit: 413 in the catalogue's shape, and
 * nothing read further (Hono's bodyLimit stops at the limit, also without content-length).
 */
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { AppError } from "../../domain/errors.ts";

const MB = 1024 * 1024;
export const JSON_BODY_LIMIT = 1 * MB;
export const MEDIA_JSON_BODY_LIMIT = 32 * MB;
export const MULTIPART_BODY_LIMIT = 128 * MB;

/** Paths whose JSON bodies carry media (base64) by design. */
const MEDIA_JSON_PATHS = /^\/(simulator|webhooks\/(evolution|cloudapi))\//;

/** The 413 of a body over `maxSize`. */
function tooLarge(maxSize: number): AppError {
  return new AppError("ERR_VALIDATION", { status: 413, message: `The request body is over ${maxSize / MB} MB` });
}

function limiter(maxSize: number): MiddlewareHandler {
  return bodyLimit({
    maxSize,
    onError: () => {
      throw tooLarge(maxSize);
    },
  });
}

/** The body limit of each request (see the module doc). */
export function requestBodyLimit(): MiddlewareHandler {
  const json = limiter(JSON_BODY_LIMIT);
  const mediaJson = limiter(MEDIA_JSON_BODY_LIMIT);
  const multipart = limiter(MULTIPART_BODY_LIMIT);
  return (c, next) => {
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    const multipartBody = /^multipart\/form-data/i.test(c.req.header("content-type") ?? "");
    // A declared length is judged from the header alone, as Hono's bodyLimit does, but
    // without touching `request.body`: reading that getter turns the body into a JS stream,
    // and every later read then goes through it (~20 µs a JSON request, issue #34's accept).
    const length = c.req.header("content-length");
    if (length !== undefined && c.req.header("transfer-encoding") === undefined) {
      const max = multipartBody ? MULTIPART_BODY_LIMIT : MEDIA_JSON_PATHS.test(c.req.path) ? MEDIA_JSON_BODY_LIMIT : JSON_BODY_LIMIT;
      if (Number.parseInt(length, 10) > max) throw tooLarge(max);
      return next();
    }
    if (multipartBody) return multipart(c, next);
    return (MEDIA_JSON_PATHS.test(c.req.path) ? mediaJson : json)(c, next);
  };
}
