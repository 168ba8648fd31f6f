/**
 * Opportunities (spec 002 §2.11, §7): a searchable, paged list with add, edit and delete for
 * every user of the company (the spec names no role restriction). Each row of the list
 * carries `ticketsCount`, the tickets linked to it (PUT /tickets/{id} `oportunidadeId`), read
 * from the ticket desk's in-memory index, never a scan of the tickets.
 */
import { Hono } from "hono";
import { oportunidades } from "../../actors/oportunidades/collection.ts";
import { oportunidadeTicketCounts } from "../../actors/tickets/mod.ts";
import { notFound } from "../../domain/errors.ts";
import { type Oportunidade, OportunidadeInput } from "../../domain/oportunidade.ts";
import { matchesSearch, paginate, SearchPage } from "../../domain/paging.ts";
import { requireAuth } from "../auth/middleware.ts";
import type { AppEnv } from "../deps.ts";
import { idParam, parseBody, parseQuery } from "../http/validate.ts";

/** The 404 of an opportunity that is not the caller company's. */
export function oportunidadeMissing(id: number | string) {
  return notFound("ERR_NOT_FOUND", `Oportunidade ${id} does not exist`);
}
const missing = oportunidadeMissing;

/** The opportunity routes, mounted at `/oportunidade`. */
export function oportunidadeRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireAuth();

  app.get("/", auth, async (c) => {
    const query = parseQuery(c, SearchPage);
    const { system } = c.get("deps");
    const companyId = c.get("principal").companyId;
    const all = await oportunidades.in(system, companyId).list();
    const hits = all.filter((o) => matchesSearch(query.searchParam, o.name))
      .sort((a, b) => a.name.localeCompare(b.name, "pt") || a.id - b.id);
    const page = paginate(hits, query.pageNumber);
    const counts = await oportunidadeTicketCounts(system, companyId);
    const rows = page.rows.map((o) => ({ ...o, ticketsCount: counts.get(o.id) ?? 0 }));
    return c.json({ oportunidades: rows, count: page.count, hasMore: page.hasMore });
  });

  app.get("/list", auth, async (c) => {
    const all = await oportunidades.in(c.get("deps").system, c.get("principal").companyId).list();
    return c.json(all.sort((a, b) => a.name.localeCompare(b.name, "pt") || a.id - b.id));
  });

  app.get("/:id", auth, async (c) => {
    const id = idParam(c, "id", () => missing(c.req.param("id")));
    const found = await oportunidades.in(c.get("deps").system, c.get("principal").companyId).get(
      id,
    );
    if (!found) throw missing(id);
    return c.json(found);
  });

  app.post("/", auth, async (c) => {
    const input = await parseBody(c, OportunidadeInput);
    const companyId = c.get("principal").companyId;
    const record = await oportunidades.in(c.get("deps").system, companyId).create(
      (id, now): Oportunidade => ({
        id,
        companyId,
        name: input.name,
        createdAt: now,
        updatedAt: now,
      }),
    );
    return c.json(record);
  });

  app.put("/:id", auth, async (c) => {
    const id = idParam(c, "id", () => missing(c.req.param("id")));
    const coll = oportunidades.in(c.get("deps").system, c.get("principal").companyId);
    // Found in the caller's company before the body is judged (another company's id: 404).
    if (!(await coll.get(id))) throw missing(id);
    const input = await parseBody(c, OportunidadeInput);
    const record = await coll
      .update(
        id,
        (old, now) => ({ ...old, name: input.name, updatedAt: now }),
        () => missing(id),
      );
    return c.json(record);
  });

  app.delete("/:id", auth, async (c) => {
    const id = idParam(c, "id", () => missing(c.req.param("id")));
    // Tickets keep the id of a deleted opportunity; the ticket's dialog then starts a new one.
    await oportunidades.in(c.get("deps").system, c.get("principal").companyId).remove(
      id,
      () => missing(id),
    );
    return c.json({ message: "Oportunidade deleted" });
  });

  return app;
}
