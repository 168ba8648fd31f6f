/**
 * The one way the server calls a URL a tenant chose (issue #38): link previews, outbound
 * webhooks (subscriptions and a connection's webhook), and the integrations (n8n, Typebot,
 * the AI module's endpoint). Before each request, and again for every redirect it follows:
 * - only `http:` and `https:`, no credentials in the URL, and the caller's ports if it names any;
 * - the host's addresses (the literal, or every A and AAAA record) must all be public
 *   (domain/network_address.ts), so neither `http://127.0.0.1:8377` nor a public name that
 *   resolves inside reaches the private network or the cloud metadata address.
 * An operator whose services run on a private network lets them through with `allowPrivate`
 * (every private host, or a list of host names and addresses).
 *
 * Residual risk, accepted: fetch resolves the name again, so a DNS answer that changes between
 * the check and the connection (rebinding) is not caught.
 */
import { isIpLiteral, isPublicAddress } from "../../domain/network_address.ts";

/** The operator's exception for private hosts: none (false), every one (true), or these hosts. */
export type PrivateAccess = boolean | readonly string[];

/** How one call is guarded. */
export interface GuardOptions {
  /** Private hosts let through (config: BALCAO_WEBHOOK_ALLOW_PRIVATE, BALCAO_INTEGRATION_ALLOW_PRIVATE). */
  allowPrivate?: PrivateAccess;
  /** Ports allowed (`""` is the scheme's default); any when absent. */
  ports?: ReadonlySet<string>;
  /** Redirects followed, each checked like the first URL; 0 (the default) answers the 3xx itself. */
  maxRedirects?: number;
}

/** A URL the rule refuses. The message says why, for the server's log and the caller's own texts. */
export class BlockedUrl extends Error {
  override name = "BlockedUrl";
}

/** Whether `access` lets private host `host` through. */
function privateAllowed(url: URL, access: PrivateAccess | undefined): boolean {
  if (access === true) return true;
  if (!access) return false;
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return access.some((allowed) => {
    const entry = allowed.trim().toLowerCase().replace(/^\[|\]$/g, "");
    return entry === host || entry === `${host}:${url.port}`;
  });
}

/** The host's addresses: itself when a literal, else every A and AAAA record. */
async function addressesOf(host: string): Promise<string[]> {
  if (isIpLiteral(host)) return [host];
  const lookups = await Promise.allSettled([Deno.resolveDns(host, "A"), Deno.resolveDns(host, "AAAA")]);
  return lookups.flatMap((r) => (r.status === "fulfilled" ? r.value : []));
}

/** Throws BlockedUrl unless `url` may be called under `options` (see the module doc). */
export async function assertPublicUrl(url: URL, options: GuardOptions = {}): Promise<void> {
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new BlockedUrl(`Only http and https URLs are allowed, not ${url.protocol}`);
  if (url.username || url.password) throw new BlockedUrl("URLs with credentials are not allowed");
  if (options.ports && !options.ports.has(url.port)) throw new BlockedUrl(`Port ${url.port} is not allowed`);
  if (privateAllowed(url, options.allowPrivate)) return;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const addresses = await addressesOf(host);
  if (addresses.length === 0) throw new BlockedUrl(`Host ${host} could not be resolved`);
  if (!addresses.every(isPublicAddress)) throw new BlockedUrl(`Host ${host} is not a public address`);
}

/** The method and body a redirect with `status` keeps (fetch's own rule: 303, and 301/302 after a POST, become GET). */
function redirected(status: number, init: RequestInit): RequestInit {
  const method = (init.method ?? "GET").toUpperCase();
  if (status === 303 ? method !== "HEAD" : (status === 301 || status === 302) && method === "POST") {
    const headers = new Headers(init.headers);
    headers.delete("content-type");
    return { ...init, method: "GET", body: undefined, headers };
  }
  return init;
}

/**
 * `fetch(url, init)` under the rule of the module doc: redirects are followed by hand (at most
 * `maxRedirects`, each target checked); throws BlockedUrl for a refused URL, and what fetch
 * throws for the rest (a closed port, a timeout through `init.signal`).
 */
export async function publicFetch(input: string | URL, init: RequestInit = {}, options: GuardOptions = {}): Promise<Response> {
  let url = new URL(input);
  let request = init;
  const maxRedirects = options.maxRedirects ?? 0;
  for (let hop = 0;; hop++) {
    await assertPublicUrl(url, options);
    const response = await fetch(url, { ...request, redirect: "manual" });
    const location = response.headers.get("location");
    if (response.status < 300 || response.status >= 400 || !location || maxRedirects === 0) return response;
    await response.body?.cancel();
    if (hop >= maxRedirects) throw new Error(`More than ${maxRedirects} redirects`);
    url = new URL(location, url);
    request = redirected(response.status, request);
  }
}
