/**
 * Tags (spec 001 §2.16, §5, §6, §7; 002 §2.10, §7). Everyone reads and creates plain tags;
 * creating or editing a kanban tag, and any edit or delete, needs `tags:manage` (admin and
 * supervisor). Ticket counts come from the tickets area's tag index. `POST /tags/sync`
 * replaces a ticket's tags (ticket_tags.ts holds the kanban moves, kanban.ts the lanes).
 */
import { Hono } from "hono";
import { z } from "zod";
import { tags } from "../../actors/tags/collection.ts";
import { deskState, getTicket, setTicketTags, tagTicketCounts } from "../../actors/tickets/mod.ts";
import { forbidden, notFound } from "../../domain/errors.ts";
import { matchesSearch, paginate, SearchPage } from "../../domain/paging.ts";
import { can, type Principal } from "../../domain/permissions.ts";
import {
  newestFirst,
  syncIds,
  type Tag,
  TagInput,
  TagListQuery,
  TagSync,
} from "../../domain/tag.ts";
import { requireAuth, requirePermission } from "../auth/middleware.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { idParam, parseBody, parseQuery, parseWith } from "../http/validate.ts";
import { requireCompanyRefs } from "./company_refs.ts";
import { readableTicket } from "./message_access.ts";

/** The 404 of a tag that does not exist in the company. */
export const tagMissing = (id: number | string) =>
  notFound("ERR_NO_TAG_FOUND", `Tag ${id} does not exist`);

/**
 * Replaces the tags of a ticket `who` may see (404 when absent, 403 when hidden: the rule of
 * the lists) after checking every tag exists in the company.
 */
export async function replaceTicketTags(
  deps: AppDeps,
  who: Principal,
  ticketId: number,
  next: (current: number[], tags: ReadonlyMap<number, Tag>) => number[],
) {
  const { ticket } = await readableTicket(deps, who, ticketId);
  const records = await tags.in(deps.system, who.companyId).records();
  const ids = next(ticket.tagIds, records);
  const unknown = ids.find((id) => !records.has(id));
  if (unknown !== undefined) throw tagMissing(unknown);
  return await setTicketTags(deps.system, who.companyId, ticketId, ids);
}

/** The tag routes, mounted at `/tags`. */
export function tagRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireAuth();
  const manage = requirePermission("tags:manage");

  app.get("/", auth, async (c) => {
    const query = parseQuery(c, SearchPage);
    const { system } = c.get("deps");
    const companyId = c.get("principal").companyId;
    const all = newestFirst(await tags.in(system, companyId).list());
    const page = paginate(
      all.filter((t) => matchesSearch(query.searchParam, t.name)),
      query.pageNumber,
    );
    const counts = await tagTicketCounts(system, companyId);
    const rows = page.rows.map((t) => ({ ...t, ticketsCount: counts.get(t.id) ?? 0 }));
    return c.json({ tags: rows, count: page.count, hasMore: page.hasMore });
  });

  app.get("/list", auth, async (c) => {
    const { kanban } = parseQuery(c, TagListQuery);
    const all = await tags.in(c.get("deps").system, c.get("principal").companyId).list();
    const hits = kanban === undefined ? all : all.filter((t) => t.kanban === kanban);
    return c.json(hits.sort((a, b) => a.name.localeCompare(b.name, "pt") || a.id - b.id));
  });

  app.post("/sync", auth, async (c) => {
    const input = await parseBody(c, TagSync);
    const ticket = await replaceTicketTags(
      c.get("deps"),
      c.get("principal"),
      input.ticketId,
      () => syncIds(input.tags),
    );
    return c.json({ ticketId: ticket.id, tags: ticket.tagIds });
  });

  app.get("/:id", auth, async (c) => {
    const id = idParam(c, "id", () => tagMissing(c.req.param("id")));
    const tag = await tags.in(c.get("deps").system, c.get("principal").companyId).get(id);
    if (!tag) throw tagMissing(id);
    return c.json(tag);
  });

  app.post("/", auth, async (c) => {
    const input = await parseBody(c, TagInput);
    const who = c.get("principal");
    if (input.kanban === 1 && !can(who, "tags:manage")) throw forbidden();
    await requireCompanyRefs(c.get("deps").system, who.companyId, { user: input.userId });
    const tag = await tags.in(c.get("deps").system, who.companyId).create((id, now): Tag => ({
      ...input,
      id,
      companyId: who.companyId,
      userId: input.userId ?? who.id,
      createdAt: now,
      updatedAt: now,
    }));
    return c.json(tag);
  });

  app.put("/:id", auth, manage, async (c) => {
    const id = idParam(c, "id", () => tagMissing(c.req.param("id")));
    const coll = tags.in(c.get("deps").system, c.get("principal").companyId);
    const old = await coll.get(id);
    if (!old) throw tagMissing(id);
    const body = await parseBody(c, z.record(z.string(), z.unknown()));
    // Fields not sent keep their stored values; the merged whole is validated as on create.
    const input = parseWith(TagInput, { ...old, ...body });
    await requireCompanyRefs(c.get("deps").system, c.get("principal").companyId, { user: body.userId === undefined ? null : input.userId });
    const tag = await coll.update(
      id,
      (current, now) => ({
        ...current,
        ...input,
        userId: input.userId ?? current.userId,
        updatedAt: now,
      }),
      () => tagMissing(id),
    );
    return c.json(tag);
  });

  app.delete("/:id", auth, manage, async (c) => {
    const id = idParam(c, "id", () => tagMissing(c.req.param("id")));
    const { system } = c.get("deps");
    const companyId = c.get("principal").companyId;
    await tags.in(system, companyId).remove(id, () => tagMissing(id));
    // Tickets that carried the tag lose it (the desk's tag index names them).
    const carrying = [...((await deskState(system, companyId)).index.byTag.get(id) ?? [])];
    for (const ticketId of carrying) {
      const ticket = await getTicket(system, companyId, ticketId);
      if (ticket) {
        await setTicketTags(system, companyId, ticketId, ticket.tagIds.filter((t) => t !== id));
      }
    }
    return c.json({ message: "Tag deleted" });
  });

  return app;
}
