/**
 * HTTP calls of the islands with the session rules of spec 000 §4: the access token lives in
 * localStorage and goes as a bearer header (the refresh token is an httpOnly cookie); a 403
 * triggers one refresh-and-retry; a 401 clears the session and goes to /login; a 402
 * ERR_SUBSCRIPTION_EXPIRED goes to /financeiro with the message and the due date; a 503
 * ERR_COMPANY_MOVED (the company changing process, issue #35) is sent again after its
 * Retry-After until the new process serves it.
 */
import { readLocal, writeLocal } from "./storage.ts";

const TOKEN = "token";

/** A failed call: the HTTP status and the body's `error` code. */
export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string, readonly body: unknown) {
    super(code || `HTTP ${status}`);
  }
}

/** The stored access token, if any. */
export function storedToken(): string {
  return readLocal(TOKEN);
}

/** Stores the access token (null clears it). */
export function storeToken(token: string | null): void {
  writeLocal(TOKEN, token);
}

/** Forgets the session and goes to the login page. */
export function clearSession(): void {
  storeToken(null);
  if (location.pathname !== "/login") location.assign("/login");
}

let refreshing: Promise<boolean> | undefined;

/** Exchanges the refresh cookie for a new access token (one at a time). */
export function refreshToken(): Promise<boolean> {
  refreshing ??= fetch("/auth/refresh_token", { method: "POST", credentials: "include" })
    .then(async (r) => {
      if (!r.ok) return false;
      storeToken((await r.json()).token);
      return true;
    })
    .catch(() => false)
    .finally(() => (refreshing = undefined));
  return refreshing;
}

/** The billing-only token of an expired company's login, kept for this tab (see subscriptionExpired). */
export function billingToken(): string {
  return typeof sessionStorage === "undefined" ? "" : sessionStorage.getItem("billingToken") ?? "";
}

async function send(method: string, path: string, body: unknown): Promise<Response> {
  const headers: Record<string, string> = { accept: "application/json" };
  // No stored token on /financeiro after an expired login (spec 000 §4): the billing token
  // lets that page list and pay invoices; the server refuses it everywhere else.
  const token = storedToken() || billingToken();
  if (token) headers.authorization = `Bearer ${token}`;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers["content-type"] = "application/json";
    payload = JSON.stringify(body);
  }
  return await fetch(path, { method, headers, body: payload, credentials: "include" });
}

/**
 * Goes to /financeiro remembering why (spec 000 §4: no stored token there). The billing-only
 * token a 402 login carries is kept for this tab only (sessionStorage "billingToken") for the
 * billing page's calls.
 */
export function subscriptionExpired(body: { message?: string; dueDate?: string | null; token?: string }): void {
  storeToken(null);
  if (body.token) sessionStorage.setItem("billingToken", body.token);
  sessionStorage.setItem("subscriptionExpired", JSON.stringify({ message: body.message, dueDate: body.dueDate }));
  if (location.pathname !== "/financeiro") location.assign("/financeiro");
}

/**
 * Undoes subscriptionExpired once the licence is renewed: forgets the billing token and the
 * message, and trades the refresh cookie for a full access token (the company is active now).
 */
export async function subscriptionRenewed(): Promise<boolean> {
  sessionStorage.removeItem("billingToken");
  sessionStorage.removeItem("subscriptionExpired");
  return await refreshToken();
}

/**
 * Whether a 403 is the expired-token answer (ERR_SESSION_EXPIRED, spec 000 §4) rather than a
 * refusal (ERR_NO_PERMISSION, ERR_PLAN_LIMIT…), which a refresh and a retry would only repeat.
 */
async function tokenExpired(response: Response): Promise<boolean> {
  try {
    return (await response.clone().json())?.error === "ERR_SESSION_EXPIRED";
  } catch {
    return false;
  }
}

/** How long a call waits, in all, for a company changing process before it gives up (ms). */
const MOVE_PATIENCE_MS = 20_000;

/**
 * Whether a 503 is a company changing process (ERR_COMPANY_MOVED, issue #35): nothing was
 * done, and the same call succeeds once its new process serves it, in a second or two.
 */
async function companyMoving(response: Response): Promise<boolean> {
  if (response.status !== 503) return false;
  try {
    return (await response.clone().json())?.error === "ERR_COMPANY_MOVED";
  } catch {
    return false;
  }
}

/** Sends the call, again after each `Retry-After` while its company changes process. */
async function sendPatiently(method: string, path: string, body: unknown): Promise<Response> {
  const deadline = Date.now() + MOVE_PATIENCE_MS;
  for (;;) {
    const response = await send(method, path, body);
    if (!await companyMoving(response) || Date.now() > deadline) return response;
    const wait = Number(response.headers.get("retry-after")) || 1;
    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
  }
}

/** Calls the API; returns the parsed JSON body or throws ApiError. */
export async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  let response = await sendPatiently(method, path, body);
  if (response.status === 403 && await tokenExpired(response) && await refreshToken()) response = await sendPatiently(method, path, body);
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  if (response.ok) return parsed as T;
  const code = typeof parsed === "object" && parsed && "error" in parsed ? String(parsed.error) : "";
  if (response.status === 401) clearSession();
  if (response.status === 402 && code === "ERR_SUBSCRIPTION_EXPIRED") {
    subscriptionExpired(parsed as { message?: string; dueDate?: string });
  }
  throw new ApiError(response.status, code || (typeof parsed === "string" ? parsed : ""), parsed);
}

/** GET shorthand. */
export function get<T = unknown>(path: string): Promise<T> {
  return api<T>("GET", path);
}

/** Builds a query string from defined values. */
export function query(params: Record<string, string | number | boolean | undefined | null | (string | number)[]>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null || v === "") continue;
    q.set(k, Array.isArray(v) ? JSON.stringify(v) : String(v));
  }
  const s = q.toString();
  return s ? `?${s}` : "";
}
