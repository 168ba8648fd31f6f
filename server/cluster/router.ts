/**
 * Any entry (issue #35): a request may reach any process of a cluster, and each company's
 * requests are served by the process that holds it. This wraps the app's `fetch`: it finds the
 * company a request is for, serves it here when this process holds it, forwards it to the
 * owner otherwise (HTTP with `fetch`, WebSockets by opening the same socket on the owner and
 * piping frames both ways), and answers 503 `ERR_COMPANY_MOVED` with `Retry-After: 1` while
 * the company changes hands (the browser's API client and socket retry by themselves).
 *
 * Which company, cheapest first:
 * - an access token (a bearer header, or `?token=` of `/ws`): its `companyId` claim, or a
 *   super user's explicit company (`/companies/{id}`, `?companyId=`); the owner verifies the
 *   token as for any request, so reading it unverified here only chooses where it goes;
 * - a connection token (the external messages API): the store's connection records
 *   (directory.ts); a channel webhook names its connection by id, and the request's secret
 *   picks it among the companies' (the same checks as the webhook's, server/channels/webhook_connection.ts);
 * - a survey key (`/buscarpesquisa/{key}`, and the public page `/survey?chavePesquisa={key}`):
 *   its stored index. The page must be routed by its key too: its loader reads that API
 *   in-process (server/pages/loader.ts), where a refusal for a company held elsewhere would
 *   render "survey not found" instead of reaching this router (see below);
 * - the refresh cookie (pages, `/auth/refresh_token`, `/auth/logout`) or a login's e-mail: the
 *   user's company, from the platform's users (every process runs those).
 * A request none of these names is served here; if what it does turns out to need a company
 * another process holds (a payment provider's webhook: its charge names the invoice), the
 * handler is refused with `ERR_COMPANY_MOVED` for that company before it writes anything of
 * it, and the request is sent on to the owner with the body kept. Such handlers are the
 * idempotent ones (a provider's retried deliveries are claimed once).
 *
 * Forwarded requests carry `x-balcao-forwarded` (a signature derived from the store's secret,
 * which every process shares) and the client's address (`x-balcao-client`, for the login
 * limits): the owner serves them as they are, and strips both headers from anyone else.
 */
import { getUser, findUserByEmail } from "../../actors/platform/lookup.ts";
import { surveyByKeyKey } from "../../actors/ratings/surveys.ts";
import type { AppDeps } from "../deps.ts";
import { verifyRefresh } from "../auth/tokens.ts";
import { webhookChecks } from "../channels/webhook_connection.ts";
import { connectionDirectory } from "./directory.ts";
import type { ClusterMember, Placement } from "./member.ts";

/** The header a forwarded request carries (see the module doc). */
export const FORWARDED = "x-balcao-forwarded";
/** The client's address on a forwarded request. */
export const CLIENT = "x-balcao-client";
/** The header an answer refused for a company another process holds names it in. */
export const MOVED = "x-balcao-moved-company";

type Serve = (request: Request, info: Deno.ServeHandlerInfo) => Response | Promise<Response>;

/** The signature forwarded requests carry: the store's secret, hashed for this use only. */
async function forwardSignature(secret: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode("balcao-cluster-forward"));
  return [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The claims of a JWT, read without checking its signature (see the module doc). */
function claimsOf(token: string): Record<string, unknown> | undefined {
  const part = token.split(".")[1];
  if (!part) return undefined;
  try {
    return JSON.parse(atob(part.replace(/-/g, "+").replace(/_/g, "/")));
  } catch {
    return undefined;
  }
}

/** See the module doc. */
export function clusterFetch(deps: AppDeps, member: ClusterMember, serve: Serve): Serve {
  const signature = forwardSignature(deps.secret);
  const directory = connectionDirectory(deps);

  /** The company a request is for, or null when nothing in it names one. */
  async function companyOf(request: Request, url: URL): Promise<number | null> {
    const path = url.pathname;
    const bearer = request.headers.get("authorization")?.replace(/^Bearer\s+/i, "") ??
      (path === "/ws" ? url.searchParams.get("token") ?? undefined : undefined);
    if (bearer) {
      const claims = claimsOf(bearer);
      if (claims?.typ === "access" && typeof claims.companyId === "number") {
        const named = path.match(/^\/companies\/(\d+)(?:\/|$)/)?.[1] ?? url.searchParams.get("companyId");
        return named && /^\d+$/.test(named) ? Number(named) : claims.companyId;
      }
      if (!claims) {
        const w = await directory.withToken(bearer);
        if (w) return w.companyId;
      }
    }
    const hook = path.match(/^\/webhooks\/(cloudapi|evolution)\/(\d+)$/);
    if (hook) return await webhookCompany(request, url, hook[1] as "cloudapi" | "evolution", Number(hook[2]));
    const survey = path === "/survey"
      ? url.searchParams.get("chavePesquisa")?.trim()
      : decodeURIComponent(path.match(/^\/buscarpesquisa\/([^/]+)$/)?.[1] ?? "");
    if (survey) {
      const ref = (await deps.kv.get<{ companyId: number }>(surveyByKeyKey(survey))).value;
      return ref?.companyId ?? null;
    }
    if (path === "/auth/login" && request.method === "POST") {
      const email = await request.clone().json().then((b) => String(b?.email ?? ""), () => "");
      return email ? (await findUserByEmail(deps.system, email))?.companyId ?? null : null;
    }
    const cookie = request.headers.get("cookie")?.match(/(?:^|;\s*)jrt=([^;]+)/)?.[1];
    if (cookie) {
      const claims = await verifyRefresh(deps.secret, decodeURIComponent(cookie));
      if (typeof claims === "object") return (await getUser(deps.system, claims.id))?.companyId ?? null;
    }
    return null;
  }

  /** The company of a channel webhook: the connection with that id whose secret the request has. */
  async function webhookCompany(request: Request, url: URL, provider: "cloudapi" | "evolution", id: number): Promise<number | null> {
    const raw = request.method === "POST" && provider === "cloudapi" ? await request.clone().text() : "";
    const signature = request.headers.get("x-hub-signature-256") ?? "";
    for (const w of await directory.withId(id)) {
      if (w.provider !== provider) continue;
      const ok = provider === "evolution"
        ? await webhookChecks.evolution(deps, w, url.searchParams.get("token") ?? "")
        : request.method === "GET"
        ? webhookChecks.cloudVerify(w, url.searchParams.get("hub.verify_token") ?? "")
        : await webhookChecks.cloudSigned(w, raw, signature);
      if (ok) return w.companyId;
    }
    return null;
  }

  /** Where company `companyId` is served, reading its lease again when this process knows of none. */
  async function placementOf(companyId: number): Promise<Placement> {
    const known = member.placement(companyId);
    return known.kind === "busy" ? await member.placementNow(companyId) : known;
  }

  return async (request, info) => {
    const url = new URL(request.url);
    const sig = await signature;
    const address = "hostname" in info.remoteAddr ? info.remoteAddr.hostname : "unknown";
    if (request.headers.get(FORWARDED) === sig) return await serve(request, info);
    // From outside the cluster: nobody else may say where it was forwarded from.
    if (request.headers.has(FORWARDED) || request.headers.has(CLIENT)) {
      const headers = new Headers(request.headers);
      headers.delete(FORWARDED);
      headers.delete(CLIENT);
      request = new Request(request, { headers });
    }
    if (url.pathname === "/health" || url.pathname.startsWith("/build/") || url.pathname.startsWith("/static/")) {
      return await serve(request, info);
    }
    const companyId = await companyOf(request, url).catch(() => null);
    if (companyId !== null && companyId !== 0) {
      const placement = await placementOf(companyId);
      if (placement.kind === "here") return await serve(request, info);
      if (placement.kind === "busy") return moved(companyId);
      return await forward(request, placement.url, sig, address);
    }
    // Served here; a company another process holds, met on the way, sends it on (module doc).
    const body = request.method === "GET" || request.method === "HEAD" ? null : await request.arrayBuffer();
    const rebuild = () => new Request(request.url, { method: request.method, headers: request.headers, body });
    const response = await serve(rebuild(), info);
    const other = Number(response.headers.get(MOVED));
    if (!other) return response;
    const placement = await member.placementNow(other);
    if (placement.kind !== "elsewhere") return response;
    await response.body?.cancel();
    return await forward(rebuild(), placement.url, sig, address);
  };
}

/** The answer while a company changes hands. */
function moved(companyId: number): Response {
  return Response.json(
    { error: "ERR_COMPANY_MOVED", message: `Company ${companyId} is being moved to another process; try again shortly` },
    { status: 503, headers: { "retry-after": "1" } },
  );
}

/** Sends `request` on to the process at `base`, HTTP or WebSocket (see the module doc). */
async function forward(request: Request, base: string, signature: string, client: string): Promise<Response> {
  const url = new URL(request.url);
  const target = `${base}${url.pathname}${url.search}`;
  if (request.headers.get("upgrade")?.toLowerCase() === "websocket") return forwardSocket(request, target);
  const headers = new Headers(request.headers);
  for (const hop of ["connection", "keep-alive", "transfer-encoding", "upgrade", "host"]) headers.delete(hop);
  headers.set(FORWARDED, signature);
  headers.set(CLIENT, client);
  try {
    const response = await fetch(target, {
      method: request.method,
      headers,
      body: request.body,
      redirect: "manual",
    });
    const out = new Headers(response.headers);
    out.delete("content-encoding"); // fetch decoded it
    out.delete("content-length");
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers: out });
  } catch {
    // The owner is gone (killed a moment ago): its lease runs out and another takes over.
    return moved(0);
  }
}

/** Pipes a browser's socket to the same socket opened on the owner. */
function forwardSocket(request: Request, target: string): Response {
  const { socket, response } = Deno.upgradeWebSocket(request);
  const upstream = new WebSocket(target.replace(/^http/, "ws"));
  upstream.binaryType = "arraybuffer";
  socket.binaryType = "arraybuffer";
  const early: Array<string | ArrayBuffer> = [];
  socket.onmessage = (e) => upstream.readyState === WebSocket.OPEN ? upstream.send(e.data) : early.push(e.data);
  upstream.onopen = () => {
    for (const data of early.splice(0)) upstream.send(data);
  };
  upstream.onmessage = (e) => {
    if (socket.readyState === WebSocket.OPEN) socket.send(e.data);
  };
  const closeBoth = (code?: number, reason?: string) => {
    // 1005/1006 cannot be sent: the browser then reconnects (1012: restart).
    const sendable = code && code !== 1005 && code !== 1006 ? code : 1012;
    if (socket.readyState <= WebSocket.OPEN) socket.close(sendable, reason ?? "");
    if (upstream.readyState <= WebSocket.OPEN) upstream.close(1000);
  };
  upstream.onclose = (e) => closeBoth(e.code, e.reason);
  upstream.onerror = () => closeBoth(1012, "Owner unreachable");
  socket.onclose = () => {
    if (upstream.readyState <= WebSocket.OPEN) upstream.close(1000);
  };
  return response;
}
