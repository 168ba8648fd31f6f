/** What every adapter does on the wire: a timed call that throws ProviderError, and HMAC checks. */
import { sameToken, signBody } from "../../channels/webhook.ts";
import { type ProviderName, ProviderError } from "./types.ts";

/** Options of one provider call. */
export interface CallOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** Efí's mutual-TLS client. */
  client?: Deno.HttpClient;
}

/**
 * Calls a provider and returns its JSON; a timeout, a network error, a non-2xx answer or a
 * body that is not JSON is a ProviderError naming the provider and the status (never the
 * request body: it may carry a payer's address).
 */
export async function callProvider(provider: ProviderName, url: string, options: CallOptions): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: options.method ?? "GET",
      headers: options.headers,
      body: options.body,
      signal: AbortSignal.timeout(options.timeoutMs),
      ...(options.client ? { client: options.client } : {}),
    });
  } catch (error) {
    throw new ProviderError(provider, `${options.method ?? "GET"} ${new URL(url).pathname} failed: ${(error as Error).message}`);
  }
  const text = await response.text();
  if (!response.ok) {
    throw new ProviderError(provider, `${options.method ?? "GET"} ${new URL(url).pathname} answered ${response.status}: ${text.slice(0, 200)}`);
  }
  try {
    const parsed = JSON.parse(text);
    if (parsed && typeof parsed === "object") return parsed as Record<string, unknown>;
  } catch { /* below */ }
  throw new ProviderError(provider, `${new URL(url).pathname} answered a body that is not a JSON object`);
}

/** Hex HMAC-SHA256 of `message` keyed by `secret`. */
export async function hmacHex(secret: string, message: string): Promise<string> {
  return (await signBody(secret, message)).slice("sha256=".length);
}

/** Constant-time equality of two secrets or signatures (false when either is empty). */
export function sameSecret(a: string, b: string): boolean {
  return sameToken(a, b);
}

/** `a=1,b=2` header parts (Stripe-Signature, x-signature); a repeated key keeps every value. */
export function headerParts(header: string | null): Map<string, string[]> {
  const parts = new Map<string, string[]>();
  for (const piece of (header ?? "").split(",")) {
    const at = piece.indexOf("=");
    if (at <= 0) continue;
    const key = piece.slice(0, at).trim();
    parts.set(key, [...(parts.get(key) ?? []), piece.slice(at + 1).trim()]);
  }
  return parts;
}

/** The JSON object of a webhook body, or null. */
export function jsonBody(raw: string): Record<string, unknown> | null {
  try {
    const parsed = JSON.parse(raw);
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? parsed as Record<string, unknown> : null;
  } catch {
    return null;
  }
}

/** A string field of an unknown object (nested path), or undefined. */
export function pick(value: unknown, ...path: string[]): unknown {
  let at = value;
  for (const key of path) {
    if (!at || typeof at !== "object") return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/** `pick` as a string (numbers stringified), or undefined. */
export function pickString(value: unknown, ...path: string[]): string | undefined {
  const found = pick(value, ...path);
  if (typeof found === "string") return found;
  if (typeof found === "number") return String(found);
  return undefined;
}
