/**
 * Link previews for `GET /messages/metadados?url` (spec 000 §3 "Link preview": image, title,
 * description, url). The server fetches a URL an agent typed, so it must not become a way
 * into the private network: the call goes through server/http/public_fetch.ts (public
 * addresses only, checked after DNS and for every redirect, at most 3), only on the default
 * or usual ports; 3 s for the whole exchange, and at most 512 KB of the body is read.
 * A closed network (and the tests, whose pages are on loopback) may allow private addresses
 * and any port (config `linkPreviewAllowPrivate`, BALCAO_PREVIEW_ALLOW_PRIVATE=1); the other
 * rules stay.
 * The HTML is parsed by link-preview-js's `getPreviewFromContent`. The image is kept only when
 * the pages may show it (https, or a data: image: server/http/security_headers.ts img-src);
 * a plain-http image would be refused by the browser and show as broken.
 */
import { getPreviewFromContent } from "link-preview-js";
import { BlockedUrl, publicFetch } from "../http/public_fetch.ts";
import { AppError } from "../../domain/errors.ts";
import type { LinkPreview } from "../../domain/message.ts";

export const PREVIEW_TIMEOUT_MS = 3000;
export const PREVIEW_MAX_BYTES = 512 * 1024;
const MAX_REDIRECTS = 3;
const ALLOWED_PORTS = new Set(["", "80", "443", "8080", "8443"]);

const refused = (message: string) =>
  new AppError("ERR_VALIDATION", { status: 400, message, fields: { url: message } });

/** How previews may fetch: `allowPrivate` lifts the address and port rules (see the module doc). */
export interface PreviewOptions {
  allowPrivate?: boolean;
}

/** Reads at most `max` bytes of a body as text (cancelling the rest). */
async function readCapped(response: Response, max: number): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < max) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value.subarray(0, max - size));
    size += value.byteLength;
  }
  await reader.cancel().catch(() => {});
  const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/** The preview of an HTML page already fetched (pure parsing; unit-tested). */
export async function previewFromHtml(
  url: string,
  html: string,
  contentType = "text/html",
): Promise<LinkPreview> {
  const parsed = await getPreviewFromContent({ url, headers: { "content-type": contentType }, data: html });
  const p = parsed as { title?: string; description?: string; images?: string[] };
  const image = p.images?.find((src) => src.startsWith("https:") || src.startsWith("data:image/")) ?? null;
  return {
    url,
    title: p.title?.trim() || null,
    description: p.description?.trim() || null,
    image,
  };
}

/** Fetches `raw` under the rules of the module doc and returns its preview. */
export async function linkPreview(raw: string, options: PreviewOptions = {}): Promise<LinkPreview> {
  let url: URL;
  try {
    url = new URL(raw.includes("://") ? raw : `https://${raw}`);
  } catch {
    throw refused("Invalid URL");
  }
  try {
    const response = await publicFetch(url, {
      signal: AbortSignal.timeout(PREVIEW_TIMEOUT_MS),
      headers: { "user-agent": "BalcaoLinkPreview/1.0", accept: "text/html,*/*;q=0.5" },
    }, {
      ports: options.allowPrivate ? undefined : ALLOWED_PORTS,
      allowPrivate: options.allowPrivate,
      maxRedirects: MAX_REDIRECTS,
    });
    const final = response.url || url.href;
    const type = response.headers.get("content-type") ?? "";
    if (!response.ok || !type.includes("html")) {
      await response.body?.cancel();
      return { url: final, title: null, description: null, image: null };
    }
    return await previewFromHtml(final, await readCapped(response, PREVIEW_MAX_BYTES), type);
  } catch (error) {
    if (error instanceof BlockedUrl) throw refused(error.message);
    // What the network said (refused, reset, timed out) stays out of the answer.
    throw new AppError("ERR_VALIDATION", { status: 400, message: `No preview for ${url.href}` });
  }
}
