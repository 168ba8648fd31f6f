/**
 * Link previews for `GET /messages/metadados?url` (spec 000 §3 "Link preview": image, title,
 * description, url). The server fetches a URL an agent typed, so it must not become a way
 * into the private network:
 * - only `http:` and `https:` URLs on the default or usual ports;
 * - the host's addresses (an IP literal, or every A/AAAA record from `Deno.resolveDns`) must
 *   all be public: loopback, private, link-local, CGNAT, multicast, reserved and the
 *   IPv4-mapped/NAT64 forms of those are refused, before the request and again for every
 *   redirect (at most 3);
 * - 3 s for the whole exchange, and at most 512 KB of the body is read.
 * Residual risk, accepted: the fetch resolves the name again, so a DNS answer that changes
 * between the check and the fetch (rebinding) is not caught.
 * A closed network (and the tests, whose pages are on loopback) may allow private addresses
 * and any port (config `linkPreviewAllowPrivate`, BALCAO_PREVIEW_ALLOW_PRIVATE=1); the other
 * rules stay.
 * The HTML is parsed by link-preview-js's `getPreviewFromContent`. The image is kept only when
 * the pages may show it (https, or a data: image: server/http/security_headers.ts img-src);
 * a plain-http image would be refused by the browser and show as broken.
 */
import { getPreviewFromContent } from "link-preview-js";
import { AppError } from "../../domain/errors.ts";
import type { LinkPreview } from "../../domain/message.ts";

export const PREVIEW_TIMEOUT_MS = 3000;
export const PREVIEW_MAX_BYTES = 512 * 1024;
const MAX_REDIRECTS = 3;
const ALLOWED_PORTS = new Set(["", "80", "443", "8080", "8443"]);

const refused = (message: string) =>
  new AppError("ERR_VALIDATION", { status: 400, message, fields: { url: message } });

function ipv4Parts(ip: string): number[] | null {
  const parts = ip.split(".");
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p))) return null;
  const nums = parts.map(Number);
  return nums.every((n) => n <= 255) ? nums : null;
}

function publicV4([a, b, c]: number[]): boolean {
  if (a === 0 || a === 10 || a === 127 || a >= 224) return false;
  if (a === 100 && b >= 64 && b <= 127) return false;
  if (a === 169 && b === 254) return false;
  if (a === 172 && b >= 16 && b <= 31) return false;
  if (a === 192 && b === 168) return false;
  if (a === 192 && b === 0 && (c === 0 || c === 2)) return false;
  if (a === 198 && (b === 18 || b === 19)) return false;
  if (a === 198 && b === 51 && c === 100) return false;
  if (a === 203 && b === 0 && c === 113) return false;
  return true;
}

/** Expands an IPv6 text to 8 groups, or null when it is not IPv6. */
function ipv6Groups(ip: string): number[] | null {
  let text = ip.replace(/^\[|\]$/g, "").split("%")[0].toLowerCase();
  const tailV4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tailV4) {
    const v4 = ipv4Parts(tailV4[1]);
    if (!v4) return null;
    text = text.slice(0, -tailV4[1].length) +
      `${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
  }
  if (!/^[0-9a-f:]+$/.test(text) || !text.includes(":")) return null;
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  if (fill < 0 || (halves.length === 1 && head.length !== 8)) return null;
  const groups = [...head, ...Array(fill).fill("0"), ...tail].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : null;
}

/** Whether `ip` (v4 or v6 text) is a public unicast address a preview may fetch. */
export function isPublicAddress(ip: string): boolean {
  const v4 = ipv4Parts(ip);
  if (v4) return publicV4(v4);
  const g = ipv6Groups(ip);
  if (!g) return false;
  const embeddedV4 = [g[6] >> 8, g[6] & 0xff, g[7] >> 8, g[7] & 0xff];
  if (g.slice(0, 5).every((x) => x === 0) && (g[5] === 0xffff || g[5] === 0)) {
    // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible), ::1 and :: fall here.
    return g[5] === 0xffff ? publicV4(embeddedV4) : false;
  }
  if (g[0] === 0x64 && g[1] === 0xff9b) return publicV4(embeddedV4);
  if ((g[0] & 0xfe00) === 0xfc00) return false; // unique local
  if ((g[0] & 0xffc0) === 0xfe80) return false; // link-local
  if ((g[0] & 0xff00) === 0xff00) return false; // multicast
  if (g[0] === 0x2001 && g[1] === 0x0db8) return false; // documentation
  return true;
}

/** How previews may fetch: `allowPrivate` lifts the address and port rules (see the module doc). */
export interface PreviewOptions {
  allowPrivate?: boolean;
}

/** Throws unless `url` is an http(s) URL whose host resolves only to public addresses. */
export async function assertFetchable(url: URL, options: PreviewOptions = {}): Promise<void> {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw refused("Only http and https links have previews");
  }
  if (url.username || url.password) throw refused("Links with credentials have no preview");
  if (options.allowPrivate) return;
  if (!ALLOWED_PORTS.has(url.port)) throw refused(`Port ${url.port} is not allowed for previews`);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  if (ipv4Parts(host) || ipv6Groups(host)) addresses = [host];
  else {
    const lookups = await Promise.allSettled([
      Deno.resolveDns(host, "A"),
      Deno.resolveDns(host, "AAAA"),
    ]);
    addresses = lookups.flatMap((r) => (r.status === "fulfilled" ? r.value : []));
  }
  if (addresses.length === 0) throw refused(`Host ${host} could not be resolved`);
  if (!addresses.every(isPublicAddress)) throw refused(`Host ${host} is not a public address`);
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
  const signal = AbortSignal.timeout(PREVIEW_TIMEOUT_MS);
  try {
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      await assertFetchable(url, options);
      const response = await fetch(url, {
        redirect: "manual",
        signal,
        headers: { "user-agent": "BalcaoLinkPreview/1.0", accept: "text/html,*/*;q=0.5" },
      });
      const location = response.headers.get("location");
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        url = new URL(location, url);
        continue;
      }
      const type = response.headers.get("content-type") ?? "";
      if (!response.ok || !type.includes("html")) {
        await response.body?.cancel();
        return { url: url.href, title: null, description: null, image: null };
      }
      return await previewFromHtml(url.href, await readCapped(response, PREVIEW_MAX_BYTES), type);
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError("ERR_VALIDATION", {
      status: 400,
      message: `No preview for ${url.href}: ${error instanceof Error ? error.message : error}`,
    });
  }
  throw refused("Too many redirects");
}
