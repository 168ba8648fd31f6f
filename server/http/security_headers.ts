/**
 * Security headers on every answer (issue #24): the app is never framed, browsers never sniff
 * a type, the referrer stays on our origin, HSTS when served over TLS, and a
 * Content-Security-Policy.
 *
 * Pages (HTML) get PAGE_CSP: scripts only from our origin (the islands' bundles under
 * /build; the islands' props are `type="application/json"` data blocks, which CSP does not
 * treat as scripts), `<style>` elements only from our origin or with the response's nonce
 * (the branding tokens in the head, server/pages/document.ts), style attributes allowed
 * (React renders a tag's colour as one, and CSS in an attribute has no selectors to leak
 * with), images from anywhere over https (WhatsApp profile pictures), the video players
 * announcements and helps embed, and no plugins, no `<base>`, no foreign form targets.
 * Every other answer (JSON, files) gets API_CSP, which allows nothing: opened on its own it
 * can neither run nor load anything. A handler that set its own CSP (media files) keeps it,
 * and PDFs get none from here (see below).
 */
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../deps.ts";
import { servedOverTls } from "./transport.ts";

/** Where the announcements' and helps' embedded players come from (domain/announcement.ts, help.ts). */
const VIDEO_FRAMES = "https://www.youtube.com https://www.youtube-nocookie.com https://player.vimeo.com";

/** The policy of an HTML page; `nonce` admits that response's own `<style nonce>` elements. */
export function pageCsp(nonce?: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    // Browsers without the -elem/-attr split fall back to this; current ones use the two below.
    "style-src 'self' 'unsafe-inline'",
    `style-src-elem 'self'${nonce ? ` 'nonce-${nonce}'` : ""}`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "media-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    `frame-src 'self' ${VIDEO_FRAMES}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** The policy of everything that is not a page. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** A fresh nonce for one page response (128 random bits, base64). */
export function newNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

const HSTS = "max-age=31536000; includeSubDomains";

function typeOf(c: Context): string {
  return c.res.headers.get("content-type") ?? "";
}

/** The middleware; mount it first so error answers and every area get the headers too. */
export function securityHeaders(): MiddlewareHandler<AppEnv> {
  return async function securityHeadersMiddleware(c, next) {
    await next();
    // A WebSocket upgrade's answer is the runtime's own (and immutable); it is not a document.
    if (c.res.status === 101) return;
    let headers = c.res.headers;
    try {
      // The first header set also finds out whether the headers can be changed at all.
      headers.set("x-content-type-options", "nosniff");
    } catch {
      // Immutable headers (a Response.redirect, a fetched answer): answer with a copy.
      c.res = new Response(c.res.body, c.res);
      headers = c.res.headers;
      headers.set("x-content-type-options", "nosniff");
    }
    const type = typeOf(c);
    // A PDF opened in a tab is shown by the browser's own viewer, which a policy that allows
    // nothing can keep from loading; its handler sets what it needs, if anything.
    if (!headers.has("content-security-policy") && !type.startsWith("application/pdf")) {
      headers.set("content-security-policy", type.startsWith("text/html") ? pageCsp() : API_CSP);
    }
    // The pre-CSP browsers' way of saying frame-ancestors 'none'.
    headers.set("x-frame-options", "DENY");
    headers.set("referrer-policy", "same-origin");
    // deps may be absent in an app built only to read its routes (tests); then nothing is trusted.
    if (servedOverTls(c, c.get("deps")?.config?.trustProxy === true)) headers.set("strict-transport-security", HSTS);
  };
}
