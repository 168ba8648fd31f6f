/**
 * One outbound HTTP call to a bot integration (Typebot, n8n): JSON in, JSON or text out, a
 * timeout, and every failure (network, timeout, non-2xx, unreadable body) returned as a value
 * with a reason an agent can read, never thrown: a failing integration must never stop the
 * conversation path that called it.
 */

/** How long an integration may take before the caller gives up (Typebot and n8n answer in ~1 s). */
export const INTEGRATION_TIMEOUT_MS = 15_000;

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
}

/** Calls `url`; see the module doc. `what` names the service in error texts ("Typebot"). */
export async function callIntegration(what: string, url: string, options: CallOptions = {}): Promise<CallResult> {
  const timeoutMs = options.timeoutMs ?? INTEGRATION_TIMEOUT_MS;
  let response: Response;
  try {
    response = await fetch(url, {
      method: options.method ?? (options.json === undefined ? "GET" : "POST"),
      headers: {
        accept: "application/json",
        ...(options.json === undefined ? {} : { "content-type": "application/json" }),
        ...options.headers,
      },
      body: options.json === undefined ? undefined : JSON.stringify(options.json),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: "follow",
    });
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === "TimeoutError";
    return {
      ok: false,
      status: null,
      timedOut,
      error: timedOut ? `${what} did not answer within ${timeoutMs} ms` : `${what} is unreachable: ${reason(error)}`,
    };
  }
  let text: string;
  try {
    text = await readCapped(response, timeoutMs);
  } catch (error) {
    return { ok: false, status: response.status, error: `${what} answer could not be read: ${reason(error)}` };
  }
  if (!response.ok) {
    return { ok: false, status: response.status, error: `${what} answered HTTP ${response.status}${detail(text)}` };
  }
  const type = response.headers.get("content-type") ?? "";
  if (!type.includes("json")) return { ok: true, status: response.status, body: text };
  try {
    return { ok: true, status: response.status, body: text.trim() === "" ? null : JSON.parse(text) };
  } catch {
    return { ok: false, status: response.status, error: `${what} answered invalid JSON${detail(text)}` };
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

/** The start of a body, for an error text an agent can act on. */
function detail(text: string): string {
  const short = text.trim().replace(/\s+/g, " ").slice(0, 160);
  return short ? `: ${short}` : "";
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
