/**
 * The platform owner's view of a cluster (issue #35): which processes share the store and what
 * each runs (`GET /cluster/nodes`), and the move of a company to another process
 * (`POST /companies/{id}/move`, routed to the company's owner, which lets it go at once for
 * the chosen process to take). A process alone has no nodes and moves nothing.
 */
import { Hono } from "hono";
import { AppError } from "../../domain/errors.ts";
import { CompanyMove } from "../../domain/cluster.ts";
import type { AppEnv } from "../deps.ts";
import { requireAuth, requirePermission } from "../auth/middleware.ts";
import { idParam, parseBody } from "../http/validate.ts";
import { recordAudit } from "../audit/record.ts";

/** `/cluster/nodes`, mounted at `/cluster`. */
export function clusterRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/nodes", requireAuth(), requirePermission("super:companies"), async (c) => {
    const cluster = c.get("deps").cluster;
    return c.json({ nodes: cluster ? await cluster.nodes() : [] });
  });
  return app;
}

/** `POST /companies/{id}/move`, mounted with the companies. */
export function companyMoveRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.post("/:id/move", requireAuth(), requirePermission("super:companies"), async (c) => {
    const deps = c.get("deps");
    const id = idParam(c, "id", () => new AppError("ERR_NO_COMPANY_FOUND", { status: 404, message: "No such company" }));
    const { node } = await parseBody(c, CompanyMove);
    if (!deps.cluster) {
      throw new AppError("ERR_VALIDATION", { status: 400, message: "This server runs alone: there is no other process", fields: { node: "Unknown process" } });
    }
    const nodes = await deps.cluster.nodes();
    if (!nodes.some((n) => n.name === node)) {
      throw new AppError("ERR_VALIDATION", { status: 400, message: `No process named ${node}`, fields: { node: `No process named ${node}` } });
    }
    // In the company's own log, while this process still holds it.
    await recordAudit(deps, c.get("principal"), "company.move", { kind: "company", id, name: String(id) }, { node }, { companyId: id });
    await deps.cluster.move(id, node);
    return c.json({ moving: true, node });
  });
  return app;
}
