/**
 * The lists the queue editor's Integrations tab offers (spec 001 §7: GET /typebot/listworkspaces,
 * GET /typebot/listtypebots?workspaceId, GET /n8n/listworkFlow; shapes not shown, ours:
 * `{ workspaces: [{ id, name }] }`, `{ typebots: [{ id, name, published }] }`,
 * `{ workflows: [{ id, name, active, webhooks }] }`). Read with the company's own Typebot and n8n
 * settings, by whoever may edit queues. Missing settings are 400 ERR_INTEGRATION_NOT_CONFIGURED;
 * a service that fails or answers garbage is 502 ERR_INTEGRATION_FAILED with its reason.
 */
import { Hono } from "hono";
import { requireAuth, requirePermission } from "../auth/middleware.ts";
import type { AppEnv } from "../deps.ts";
import { parseQuery } from "../http/validate.ts";
import { TypebotListQuery } from "../../domain/typebot.ts";
import { listN8nWorkflows } from "../integrations/n8n.ts";
import { listTypebots, listTypebotWorkspaces } from "../integrations/typebot.ts";

/** The integration list routes, mounted at `/`. */
export function integrationRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const guard = [requireAuth(), requirePermission("queues:manage")] as const;

  app.get("/typebot/listworkspaces", ...guard, async (c) => {
    return c.json(await listTypebotWorkspaces(c.get("deps"), c.get("principal").companyId));
  });

  app.get("/typebot/listtypebots", ...guard, async (c) => {
    const { workspaceId } = parseQuery(c, TypebotListQuery);
    return c.json(await listTypebots(c.get("deps"), c.get("principal").companyId, workspaceId));
  });

  app.get("/n8n/listworkFlow", ...guard, async (c) => {
    return c.json(await listN8nWorkflows(c.get("deps"), c.get("principal").companyId));
  });

  return app;
}
