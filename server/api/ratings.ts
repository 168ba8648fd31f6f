/**
 * Ratings (spec 002 §2.11, §3, §5, §7; spec 000 §7): the company's satisfaction surveys —
 * a searchable, paged list with add, edit and delete, the list the close dialog chooses from,
 * and sending a survey to a ticket's customer on demand. The spec names no role restriction
 * (002 §6): like opportunities, every user of the company may use them.
 */
import { Hono } from "hono";
import { ratings } from "../../actors/ratings/mod.ts";
import { getTicket, ticketMissing } from "../../actors/tickets/mod.ts";
import { companySettings, getCompanyUser } from "../../actors/platform/lookup.ts";
import { notFound } from "../../domain/errors.ts";
import { matchesSearch, paginate, SearchPage } from "../../domain/paging.ts";
import {
  type Rating,
  RatingInput,
  ratingsByName,
  ratingsNewestFirst,
  RatingSendInput,
} from "../../domain/rating.ts";
import { assertCanHandle } from "../../domain/ticket.ts";
import { requireAuth } from "../auth/middleware.ts";
import type { AppEnv } from "../deps.ts";
import { idParam, parseBody, parseQuery, parseWith } from "../http/validate.ts";
import { z } from "zod";
import { ratingMissing, sendableRating, sendSurvey } from "../usecases/rating_survey.ts";
import { requireCompanyRefs } from "./company_refs.ts";

/** The rating routes, mounted at `/ratings`. */
export function ratingRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireAuth();

  app.get("/", auth, async (c) => {
    const query = parseQuery(c, SearchPage);
    const all = await ratings.in(c.get("deps").system, c.get("principal").companyId).list();
    const hits = ratingsNewestFirst(all).filter((r) => matchesSearch(query.searchParam, r.name, r.message));
    const page = paginate(hits, query.pageNumber);
    return c.json({ ratings: page.rows, count: page.count, hasMore: page.hasMore });
  });

  app.get("/list", auth, async (c) => {
    const all = await ratings.in(c.get("deps").system, c.get("principal").companyId).list();
    return c.json(ratingsByName(all));
  });

  app.post("/messages/:ticketId", auth, async (c) => {
    const deps = c.get("deps");
    const who = c.get("principal");
    const ticketId = idParam(c, "ticketId", () => ticketMissing(c.req.param("ticketId")));
    const ticket = await getTicket(deps.system, who.companyId, ticketId);
    if (!ticket) throw ticketMissing(ticketId);
    const input = await parseBody(c, RatingSendInput);
    assertCanHandle(ticket, who, await companySettings(deps.system, who.companyId));
    const userId = input.userId ?? ticket.userId ?? who.id;
    if (!(await getCompanyUser(deps.system, who.companyId, userId))) {
      throw notFound("ERR_NO_USER_FOUND", `User ${userId} does not exist`);
    }
    const rating = await sendableRating(deps, who.companyId, input.ratingId);
    await sendSurvey(deps, ticket, rating, userId);
    return c.json({ message: "Rating sent", ticketId, ratingId: rating.id, userId });
  });

  app.get("/:id", auth, async (c) => {
    const id = idParam(c, "id", () => ratingMissing(c.req.param("id")));
    const rating = await ratings.in(c.get("deps").system, c.get("principal").companyId).get(id);
    if (!rating) throw ratingMissing(id);
    return c.json(rating);
  });

  app.post("/", auth, async (c) => {
    const input = await parseBody(c, RatingInput);
    const who = c.get("principal");
    await requireCompanyRefs(c.get("deps").system, who.companyId, { user: input.userId });
    const rating = await ratings.in(c.get("deps").system, who.companyId).create((id, now): Rating => ({
      id,
      companyId: who.companyId,
      name: input.name,
      message: input.message,
      geral: input.geral,
      options: input.options,
      userId: input.userId ?? who.id,
      createdAt: now,
      updatedAt: now,
    }));
    return c.json(rating);
  });

  app.put("/:id", auth, async (c) => {
    const id = idParam(c, "id", () => ratingMissing(c.req.param("id")));
    const coll = ratings.in(c.get("deps").system, c.get("principal").companyId);
    const old = await coll.get(id);
    if (!old) throw ratingMissing(id);
    const body = await parseBody(c, z.record(z.string(), z.unknown()));
    // Fields not sent keep their stored values; the merged whole is validated as on create.
    const input = parseWith(RatingInput, { ...old, ...body });
    await requireCompanyRefs(c.get("deps").system, c.get("principal").companyId, { user: body.userId === undefined ? null : input.userId });
    const rating = await coll.update(
      id,
      (current, now) => ({
        ...current,
        name: input.name,
        message: input.message,
        geral: input.geral,
        options: input.options,
        userId: input.userId ?? current.userId,
        updatedAt: now,
      }),
      () => ratingMissing(id),
    );
    return c.json(rating);
  });

  app.delete("/:id", auth, async (c) => {
    const id = idParam(c, "id", () => ratingMissing(c.req.param("id")));
    // Answers already recorded keep their ratingId; surveys already sent keep their options.
    await ratings.in(c.get("deps").system, c.get("principal").companyId).remove(id, () => ratingMissing(id));
    return c.json({ message: "Rating deleted" });
  });

  return app;
}
