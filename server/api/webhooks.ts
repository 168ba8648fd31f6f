/**
 * Provider webhooks:
 * - POST /webhooks/evolution/{whatsappId}?token= receives Evolution API's events for one
 *   connection. Evolution sends no signature, so the URL's secret authenticates the call: the
 *   connection's own inbound secret (channels/evolution.ts evolutionWebhookSecret), never its
 *   API token, which whoever sends through the external API holds (issue #38).
 * - GET /webhooks/cloudapi/{whatsappId} answers Meta's verification (`hub.mode=subscribe`,
 *   `hub.verify_token` = the connection's verify token → `hub.challenge` as text, else 403);
 *   POST /webhooks/cloudapi/{whatsappId} receives the Cloud API's notifications, accepted
 *   only with `X-Hub-Signature-256: sha256=<HMAC-SHA256 of the raw body, keyed by the app
 *   secret>` (401 and nothing stored otherwise).
 * Events go to the connection's live adapter, like a socket's events.
 */
import { Hono } from "hono";
import { z } from "zod";
import { connectionDirectory } from "../cluster/directory.ts";
import { AppError, notFound } from "../../domain/errors.ts";
import type { Provider, Whatsapp } from "../../domain/whatsapp.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { CloudApiAdapter } from "../channels/cloudapi.ts";
import { EvolutionAdapter, evolutionWebhookSecret } from "../channels/evolution.ts";
import { signBody } from "../channels/webhook.ts";
import { idParam } from "../http/validate.ts";

/**
 * The Cloud API's signature header as read: Meta sends `sha256=` and 64 hex digits; a longer
 * value is refused (401) without being compared.
 */
export const HubSignature = z.string().max(100);

/** Constant-time comparison of two tokens. */
export function sameToken(a: string, b: string): boolean {
  if (a.length !== b.length || a.length === 0) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * The connection `id` of provider `provider` whose secret passes `accept`, in whichever company
 * (connection ids are per company). Read from the store's records (server/cluster/
 * directory.ts), not the companies' actors: in a process of several (issue #35) the router
 * finds the owner with the same lookup, and only the owner's actors may be woken. A miss lists
 * the records again, for a connection created or changed a moment ago.
 */
export async function findConnection(
  deps: AppDeps,
  id: number,
  provider: Provider,
  accept: (w: Whatsapp) => boolean | Promise<boolean>,
): Promise<Whatsapp | undefined> {
  const directory = connectionDirectory(deps);
  for (let attempt = 0; attempt < 2; attempt++) {
    if (attempt > 0) await directory.refresh();
    for (const w of await directory.withId(id)) {
      if (w.provider === provider && await accept(w)) return w;
    }
  }
  return undefined;
}

const unknownConnection = () => new AppError("ERR_SESSION_EXPIRED", { status: 401, message: "Unknown connection or token" });

/** The live adapter of a connection, started when it is not running yet. */
async function liveAdapter(deps: AppDeps, w: Whatsapp) {
  const live = deps.channels.get(w.companyId, w.id) ?? await deps.channels.start(w.companyId, w.id);
  return live.adapter;
}

/** The webhooks' checks of a request against a connection's secrets (shared with the cluster's router). */
export const webhookChecks = {
  /** Evolution: the URL's token is the connection's own webhook secret (#38). */
  evolution: async (deps: AppDeps, w: Whatsapp, token: string) =>
    sameToken(await evolutionWebhookSecret(deps.secret, w.companyId, w.id), token),
  /** Cloud API verification: Meta echoes the connection's verify token. */
  cloudVerify: (w: Whatsapp, token: string) => sameToken(w.cloudVerifyToken, token),
  /** Cloud API delivery: the body signed with the connection's app secret. */
  cloudSigned: async (w: Whatsapp, raw: string, signature: string) =>
    w.cloudAppSecret !== "" && sameToken(await signBody(w.cloudAppSecret, raw), signature),
};

export function webhookRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.post("/evolution/:whatsappId", async (c) => {
    const deps = c.get("deps");
    const id = idParam(c, "whatsappId", () => notFound("ERR_NO_WAPP_FOUND", "No such connection"));
    const token = c.req.query("token") ?? "";
    const found = await findConnection(deps, id, "evolution", (w) => webhookChecks.evolution(deps, w, token));
    if (!found) throw unknownConnection();
    const adapter = await liveAdapter(deps, found);
    if (!(adapter instanceof EvolutionAdapter)) throw notFound("ERR_NO_WAPP_FOUND", "Connection is not an Evolution connection");
    let payload: { event?: string; data?: unknown } = {};
    try {
      payload = await c.req.json();
    } catch {
      throw new AppError("ERR_VALIDATION", { status: 400, message: "Body is not valid JSON" });
    }
    await adapter.handleWebhook(payload);
    return c.json({ ok: true });
  });

  app.get("/cloudapi/:whatsappId", async (c) => {
    const deps = c.get("deps");
    const id = idParam(c, "whatsappId", () => notFound("ERR_NO_WAPP_FOUND", "No such connection"));
    const token = c.req.query("hub.verify_token") ?? "";
    const found = c.req.query("hub.mode") === "subscribe" &&
      await findConnection(deps, id, "cloudapi", (w) => webhookChecks.cloudVerify(w, token));
    // The catalogue's JSON error like every refusal; Meta only looks for a 200 with the challenge.
    if (!found) throw new AppError("ERR_NO_PERMISSION", { status: 403, message: "Verification failed: wrong hub.mode or hub.verify_token" });
    return c.text(c.req.query("hub.challenge") ?? "", 200);
  });

  app.post("/cloudapi/:whatsappId", async (c) => {
    const deps = c.get("deps");
    const id = idParam(c, "whatsappId", () => notFound("ERR_NO_WAPP_FOUND", "No such connection"));
    const raw = await c.req.text();
    const header = HubSignature.safeParse(c.req.header("x-hub-signature-256") ?? "");
    const signature = header.success ? header.data : "";
    const found = await findConnection(deps, id, "cloudapi", (w) => webhookChecks.cloudSigned(w, raw, signature));
    if (!found) throw new AppError("ERR_SESSION_EXPIRED", { status: 401, message: "Unknown connection or bad X-Hub-Signature-256" });
    let payload: unknown;
    try {
      payload = JSON.parse(raw);
    } catch {
      throw new AppError("ERR_VALIDATION", { status: 400, message: "Body is not valid JSON" });
    }
    const adapter = await liveAdapter(deps, found);
    if (!(adapter instanceof CloudApiAdapter)) throw notFound("ERR_NO_WAPP_FOUND", "Connection is not a Cloud API connection");
    await adapter.handleWebhook(payload);
    return c.json({ ok: true });
  });
  return app;
}
