/**
 * One outbound HTTP call to an integration a tenant set up (Typebot, n8n, the AI module's
 * endpoint): JSON in, JSON or text out, a timeout, and every failure (network, timeout,
 * non-2xx, unreadable body) returned as a value with a reason an agent can read, never thrown:
 * a failing integration must never stop the conversation path that called it.
 *
 * The URL is the tenant's, so the call goes through server/http/public_fetch.ts (issue #38):
 * no loopback, private, link-local or metadata address, checked after DNS and on each of at
 * most 3 redirects, unless the operator lets private hosts through
 * (BALCAO_INTEGRATION_ALLOW_PRIVATE). And the reason never carries the answer's body, nor
 * tells a refused address from a closed port ("is unreachable" for both): an error text must
 * not become a way to read or map the server's network.
 */
import { BlockedUrl, type PrivateAccess, publicFetch } from "../http/public_fetch.ts";
import { log } from "../../actors/_runtime/log.ts";


/** How long an integration may take before the caller gives up (Typebot and n8n answer in ~1 s). */
export const INTEGRATION_TIMEOUT_MS = 15_000;

/** Redirects an integration may answer with (each target checked like the first URL). */
const MAX_REDIRECTS = 3;

/** Largest answer body read (a bot's reply is a few KB; a runaway body must not fill memory). */
const MAX_BODY_BYTES = 1_000_000;

/** What a call gave: the parsed body (JSON, or the text when not JSON) or why it failed. */
export type CallResult =
  | { ok: true; status: number; body: unknown }
  | { ok: false; status: number | null; error: string; timedOut?: boolean };

/** Options of one call. */
export interface CallOptions {
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  /** Sent as JSON. */
  json?: unknown;
  timeoutMs?: number;
  /** The operator's private hosts let through (config integrationAllowPrivate); required so no caller forgets it. */
  allowPrivate: PrivateAccess;
}

/** Calls `url`; see the module doc. `what` names the service in error texts ("Typebot"). */
export async function callIntegration(what: string, url: string, options: CallOptions): Promise<CallResult> {
  const timeoutMs = options.timeoutMs ?? INTEGRATION_TIMEOUT_MS;
  let response: Response;
  try {
    response = await publicFetch(url, {
      method: options.method ?? (options.json === undefined ? "GET" : "POST"),
      headers: {
        accept: "application/json",
        ...(options.json === undefined ? {} : { "content-type": "application/json" }),
        ...options.headers,
      },
      body: options.json === undefined ? undefined : JSON.stringify(options.json),
      signal: AbortSignal.timeout(timeoutMs),
    }, { allowPrivate: options.allowPrivate, maxRedirects: MAX_REDIRECTS });
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === "TimeoutError";
    // The operator's log keeps why; the tenant reads the same text for a refused address,
    // a closed port and a name that does not resolve.
    if (error instanceof BlockedUrl) log.warn(`${what} at ${url} refused: ${error.message}`);
    return {
      ok: false,
      status: null,
      timedOut,
      error: timedOut ? `${what} did not answer within ${timeoutMs} ms` : `${what} is unreachable`,
    };
  }
  let text: string;
  try {
    text = await readCapped(response, timeoutMs);
  } catch {
    return { ok: false, status: response.status, error: `${what} answer could not be read` };
  }
  if (!response.ok) return { ok: false, status: response.status, error: `${what} answered HTTP ${response.status}` };
  const type = response.headers.get("content-type") ?? "";
  if (!type.includes("json")) return { ok: true, status: response.status, body: text };
  try {
    return { ok: true, status: response.status, body: text.trim() === "" ? null : JSON.parse(text) };
  } catch {
    return { ok: false, status: response.status, error: `${what} answered invalid JSON` };
  }
}

/** The body as text, at most MAX_BODY_BYTES, within the same time budget. */
async function readCapped(response: Response, timeoutMs: number): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let size = 0;
  const timer = setTimeout(() => reader.cancel("timeout").catch(() => {}), timeoutMs);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_BODY_BYTES) {
        await reader.cancel();
        throw new Error(`body larger than ${MAX_BODY_BYTES} bytes`);
      }
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    clearTimeout(timer);
  }
  return text + decoder.decode();
}
