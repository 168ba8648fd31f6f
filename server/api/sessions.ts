/**
 * Session actions (spec 001 §2.1, §7): POST /whatsappsession/{id} connects again, PUT asks
 * for a new QR (the pairing is dropped), DELETE logs out (`lib` baileys or evolution), and
 * POST /whatsapp-restart/ restarts every connection of the company.
 */
import { type Context, Hono } from "hono";
import { whatsapps } from "../../actors/whatsapps/collection.ts";
import { notFound } from "../../domain/errors.ts";
import { SessionLogoutBody } from "../../domain/whatsapp.ts";
import type { AppEnv } from "../deps.ts";
import { requireAuth, requirePermission } from "../auth/middleware.ts";
import { idParam, parseBody } from "../http/validate.ts";
import { whatsappView } from "./whatsapps.ts";

const missing = (id: string | undefined) => () => notFound("ERR_NO_WAPP_FOUND", `Connection ${id} does not exist`);

export function sessionRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("/whatsappsession/*", requireAuth(), requirePermission("connections-page:actionButtons"));
  app.use("/whatsapp-restart/*", requireAuth(), requirePermission("connections-page:actionButtons"));
  app.use("/whatsapp-restart", requireAuth(), requirePermission("connections-page:actionButtons"));

  /** The connection of the caller's company, or 404. */
  const connection = async (c: Context<AppEnv>) => {
    const { system } = c.get("deps");
    const companyId = c.get("principal").companyId;
    const id = idParam(c, "id", missing(c.req.param("id")));
    const record = await whatsapps.in(system, companyId).get(id);
    if (!record) throw missing(c.req.param("id"))();
    return { companyId, id };
  };

  app.post("/whatsappsession/:id", async (c) => {
    const { companyId, id } = await connection(c);
    const deps = c.get("deps");
    await deps.channels.start(companyId, id);
    const record = await whatsapps.in(deps.system, companyId).get(id);
    return c.json({ message: "Starting session.", whatsapp: record && await whatsappView(deps.system, record) });
  });

  app.put("/whatsappsession/:id", async (c) => {
    const { companyId, id } = await connection(c);
    const deps = c.get("deps");
    await deps.channels.logout(companyId, id);
    await deps.channels.start(companyId, id);
    const record = await whatsapps.in(deps.system, companyId).get(id);
    return c.json({ message: "Starting session.", whatsapp: record && await whatsappView(deps.system, record) });
  });

  app.delete("/whatsappsession/:id", async (c) => {
    const { companyId, id } = await connection(c);
    await parseBody(c, SessionLogoutBody);
    await c.get("deps").channels.logout(companyId, id);
    return c.json({ message: "Session disconnected." });
  });

  const restart = async (c: Context<AppEnv>) => {
    const deps = c.get("deps");
    const companyId = c.get("principal").companyId;
    const list = await whatsapps.in(deps.system, companyId).list();
    await Promise.all(list.map((w) => deps.channels.start(companyId, w.id).catch(() => {})));
    return c.json({ message: "Whatsapp restart." });
  };
  app.post("/whatsapp-restart", restart);
  app.post("/whatsapp-restart/", restart);

  return app;
}
