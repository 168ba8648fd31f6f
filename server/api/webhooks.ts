/**
 * Provider webhooks: POST /webhooks/evolution/{whatsappId}?token= receives Evolution API's
 * events for one connection; the connection's token authenticates the call (Evolution sends
 * no signature). Events go to the connection's live adapter, like a socket's events.
 */
import { Hono } from "hono";
import { companies, PLATFORM } from "../../actors/platform/collections.ts";
import { whatsapps } from "../../actors/whatsapps/collection.ts";
import { AppError, notFound } from "../../domain/errors.ts";
import type { AppEnv } from "../deps.ts";
import { EvolutionAdapter } from "../channels/evolution.ts";
import { idParam } from "../http/validate.ts";

/** Constant-time comparison of two tokens. */
function sameToken(a: string, b: string): boolean {
  if (a.length !== b.length || a.length === 0) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

export function webhookRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.post("/evolution/:whatsappId", async (c) => {
    const deps = c.get("deps");
    const id = idParam(c, "whatsappId", () => notFound("ERR_NO_WAPP_FOUND", "No such connection"));
    const token = c.req.query("token") ?? "";
    let found: { companyId: number } | undefined;
    for (const company of await companies.in(deps.system, PLATFORM).list()) {
      const w = await whatsapps.in(deps.system, company.id).get(id);
      if (w && w.provider === "evolution" && sameToken(w.token, token)) {
        found = { companyId: company.id };
        break;
      }
    }
    if (!found) throw new AppError("ERR_SESSION_EXPIRED", { status: 401, message: "Unknown connection or token" });
    const live = deps.channels.get(found.companyId, id) ?? await deps.channels.start(found.companyId, id);
    if (!(live.adapter instanceof EvolutionAdapter)) throw notFound("ERR_NO_WAPP_FOUND", "Connection is not an Evolution connection");
    let payload: { event?: string; data?: unknown } = {};
    try {
      payload = await c.req.json();
    } catch {
      throw new AppError("ERR_VALIDATION", { status: 400, message: "Body is not valid JSON" });
    }
    await live.adapter.handleWebhook(payload);
    return c.json({ ok: true });
  });
  return app;
}
