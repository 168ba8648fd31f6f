/**
 * The AI module (spec 002 §2.17, §7): `GET /ai-module/` lists the company's settings as
 * `[{ id, key, value }]` (the API key masked), `POST /ai-module` stores a key not yet stored
 * and `PUT /ai-module` changes a stored one, each with `{ key, value }` checked by that key's
 * rule (domain/ai_module.ts). `POST /ai-module/suggest/{ticketId}` is the reply assistant:
 * `{ suggestion }` for the agent's composer (server/ai/suggest.ts).
 *
 * Every route needs the plan flag useAI (403 with the upgrade text). 002 §6 shows no role
 * rule; ours: every user of the company reads the settings (the composer asks whether the
 * assistant is configured, and the key is never shown), admins write them as they write the
 * company's settings (settings:manage), and a suggestion is asked by whoever may write in
 * the ticket (the messages API's rule: 404 for another company's ticket, 403 when hidden).
 */
import { Hono } from "hono";
import { listAiSettings, writeAiSetting } from "../../actors/ai_settings/mod.ts";
import { ticketMissing } from "../../actors/tickets/mod.ts";
import { AiSettingInput, aiSettingView } from "../../domain/ai_module.ts";
import { suggestReply } from "../ai/suggest.ts";
import { requireAuth, requirePermission } from "../auth/middleware.ts";
import { requirePlan } from "../auth/plan_gate.ts";
import type { AppEnv } from "../deps.ts";
import { idParam, parseBody } from "../http/validate.ts";
import { writableTicket } from "./message_access.ts";

/** The AI module routes, mounted at `/ai-module` (and `/ai-module/`). */
export function aiModuleRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const gate = [requireAuth(), requirePlan("useAI")] as const;
  const admin = [...gate, requirePermission("settings:manage")] as const;

  app.get("/", ...gate, async (c) => {
    const list = await listAiSettings(c.get("deps").system, c.get("principal").companyId);
    return c.json(list.map(aiSettingView));
  });

  app.post("/", ...admin, async (c) => {
    const { key, value } = await parseBody(c, AiSettingInput);
    const saved = await writeAiSetting(c.get("deps").system, c.get("principal").companyId, key, value, "create");
    return c.json(aiSettingView(saved), 201);
  });

  app.put("/", ...admin, async (c) => {
    const { key, value } = await parseBody(c, AiSettingInput);
    const saved = await writeAiSetting(c.get("deps").system, c.get("principal").companyId, key, value, "update");
    return c.json(aiSettingView(saved));
  });

  app.post("/suggest/:ticketId", ...gate, async (c) => {
    const deps = c.get("deps");
    const who = c.get("principal");
    const ticketId = idParam(c, "ticketId", () => ticketMissing(c.req.param("ticketId")));
    const { ticket } = await writableTicket(deps, who, ticketId);
    return c.json(await suggestReply(deps, who.companyId, ticket.id));
  });

  return app;
}
