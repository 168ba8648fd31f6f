/**
 * Help entries (spec 001 §2.9, §7): everyone logged in reads them, super users write them.
 * `GET /helps` is the searchable, paged admin table; `GET /helps/list` the Help screen.
 */
import { Hono } from "hono";
import { helps } from "../../actors/helps/collection.ts";
import { PLATFORM } from "../../actors/platform/collections.ts";
import { notFound } from "../../domain/errors.ts";
import { type Help, HelpInput } from "../../domain/help.ts";
import { matchesSearch, paginate, SearchPage } from "../../domain/paging.ts";
import type { AppEnv } from "../deps.ts";
import { requireAuth, requirePermission } from "../auth/middleware.ts";
import { idParam, parseBody, parseQuery } from "../http/validate.ts";

const noHelp = (id: number | string) => notFound("ERR_NO_HELP_FOUND", `Help ${id} not found`);

/** The help routes, mounted at `/helps`. */
export function helpRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // Middleware per route, not `use("*")`: a sub-app's `*` would also run for other areas'
  // routes mounted under the same prefix.
  const auth = requireAuth();
  const superOnly = [auth, requirePermission("super:helps")] as const;

  app.get("/", auth, async (c) => {
    const query = parseQuery(c, SearchPage);
    const all = await helps.in(c.get("deps").system, PLATFORM).list();
    const hits = all.filter((h) => matchesSearch(query.searchParam, h.title, h.description));
    const page = paginate(hits, query.pageNumber);
    return c.json({ records: page.rows, count: page.count, hasMore: page.hasMore });
  });

  app.get("/list", auth, async (c) => c.json(await helps.in(c.get("deps").system, PLATFORM).list()));

  app.get("/:id", auth, async (c) => {
    const id = idParam(c, "id", () => noHelp(c.req.param("id")));
    const help = await helps.in(c.get("deps").system, PLATFORM).get(id);
    if (!help) throw noHelp(id);
    return c.json(help);
  });

  app.post("/", ...superOnly, async (c) => {
    const input = await parseBody(c, HelpInput);
    const help = await helps.in(c.get("deps").system, PLATFORM).create((id, now): Help => ({
      ...input,
      id,
      createdAt: now,
      updatedAt: now,
    }));
    return c.json(help, 201);
  });

  app.put("/:id", ...superOnly, async (c) => {
    const id = idParam(c, "id", () => noHelp(c.req.param("id")));
    const input = await parseBody(c, HelpInput);
    const help = await helps.in(c.get("deps").system, PLATFORM).update(
      id,
      (old, now) => ({ ...old, ...input, updatedAt: now }),
      () => noHelp(id),
    );
    return c.json(help);
  });

  app.delete("/:id", ...superOnly, async (c) => {
    const id = idParam(c, "id", () => noHelp(c.req.param("id")));
    await helps.in(c.get("deps").system, PLATFORM).remove(id, () => noHelp(id));
    return c.json({ message: "Help deleted" });
  });

  return app;
}
