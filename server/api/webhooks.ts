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
import { AppError, notFound } from "../../domain/errors.ts";
import { HubSignature, type Whatsapp } from "../../domain/whatsapp.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { CloudApiAdapter } from "../channels/cloudapi.ts";
import { EvolutionAdapter } from "../channels/evolution.ts";
import { findConnection, webhookChecks } from "../channels/webhook_connection.ts";
import { idParam } from "../http/validate.ts";

const unknownConnection = () => new AppError("ERR_SESSION_EXPIRED", { status: 401, message: "Unknown connection or token" });

/** The live adapter of a connection, started when it is not running yet. */
async function liveAdapter(deps: AppDeps, w: Whatsapp) {
  const live = deps.channels.get(w.companyId, w.id) ?? await deps.channels.start(w.companyId, w.id);
  return live.adapter;
}

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
