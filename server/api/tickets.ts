/**
 * The ticket calls of spec 000 §7 and 002 §3: lists (`GET /tickets`, `/ticketsCount`; the
 * kanban's `/tickets/kanban` is kanban.ts) answered from the desk's in-memory indexes,
 * single tickets by id and uuid, creation, the lifecycle through `PUT /tickets/{id}` (and in
 * bulk through `/tickets/multiUpdate`) and deletion. Every change is decided inside the
 * company's ticket desk (actors/tickets), so concurrent requests on one ticket serialize.
 */
import { type Context, Hono } from "hono";
import { getContact } from "../../actors/contacts/mod.ts";
import { companySettings, getCompanyUser } from "../../actors/platform/lookup.ts";
import { oportunidades } from "../../actors/oportunidades/collection.ts";
import { queues } from "../../actors/queues/collection.ts";
import {
  deskOf,
  deskState,
  loadLookups,
  ticketItem,
  ticketItemJson,
  ticketMissing,
} from "../../actors/tickets/mod.ts";
import { countTickets, queryTickets } from "../../actors/tickets/query.ts";
import { whatsapps } from "../../actors/whatsapps/collection.ts";
import { AppError, notFound } from "../../domain/errors.ts";
import { isManager } from "../../domain/permissions.ts";
import { assertCanHandle, type Ticket } from "../../domain/ticket.ts";
import {
  SELECT_CONNECTION,
  SELECT_QUEUE,
  TicketCreate,
  TicketMultiUpdate,
  TicketUpdate,
} from "../../domain/ticket_input.ts";
import { TicketListQuery } from "../../domain/ticket_query.ts";
import { requireAuth } from "../auth/middleware.ts";
import type { AppEnv } from "../deps.ts";
import { idParam, parseBody, parseQuery } from "../http/validate.ts";
import { memoizedQuery } from "../http/query_memo.ts";
import { sendableRating } from "../usecases/rating_survey.ts";
import { deleteTicket } from "../usecases/ticket_delete.ts";
import { transitionTicket } from "../usecases/ticket_transition.ts";
import { oportunidadeMissing } from "./oportunidades.ts";
import { searchTickets } from "./ticket_search.ts";

type Ctx = Context<AppEnv>;

/** The deps, principal and company settings every ticket call reads. */
async function scope(c: Ctx) {
  const deps = c.get("deps");
  const who = c.get("principal");
  const settings = await companySettings(deps.system, who.companyId);
  return { deps, system: deps.system, who, companyId: who.companyId, settings };
}

/** Adds `user: { id, name }` to an ERR_OTHER_OPEN_TICKET refusal (the desk knows only ids). */
async function withConflictUser<T>(c: Ctx, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== "ERR_OTHER_OPEN_TICKET") throw error;
    const ticket = error.extra?.ticket as { userId: number | null } | undefined;
    const { system } = c.get("deps");
    const { companyId } = c.get("principal");
    const user = ticket?.userId ? await getCompanyUser(system, companyId, ticket.userId) : undefined;
    throw new AppError(error.code, {
      status: error.status,
      message: error.message,
      extra: { ticket: { ...ticket, user: user ? { id: user.id, name: user.name } : null } },
    });
  }
}

/** Throws unless the queue and user named in a body exist in the company. */
async function assertRefs(
  c: Ctx,
  body: { queueId?: number | null; userId?: number | null; ratingId?: number | null; oportunidadeId?: number | null },
) {
  const { system } = c.get("deps");
  const { companyId } = c.get("principal");
  // The survey a resolve sends must exist and be active (server/usecases/rating_survey.ts).
  if (body.ratingId) await sendableRating(c.get("deps"), companyId, body.ratingId);
  if (body.queueId && !(await queues.in(system, companyId).get(body.queueId))) {
    throw notFound("ERR_NO_QUEUE_FOUND", `Queue ${body.queueId} does not exist`);
  }
  if (body.userId && !(await getCompanyUser(system, companyId, body.userId))) {
    throw notFound("ERR_NO_USER_FOUND", `User ${body.userId} does not exist`);
  }
  if (body.oportunidadeId && !(await oportunidades.in(system, companyId).get(body.oportunidadeId))) {
    throw oportunidadeMissing(body.oportunidadeId);
  }
}

/**
 * A changed ticket's item for the reply: written once, so built as an event's is (view.ts
 * `listBaseOf`: the copy for lists costs ~8 µs that no reply needs, on every accept and close).
 */
async function itemOf(c: Ctx, ticket: Ticket) {
  return ticketItem(ticket, await loadLookups(c.get("deps").system, ticket.companyId), { event: true });
}

/** The connection of a new ticket: the one named, else the company's default. */
async function connectionFor(c: Ctx, whatsappId: number | null | undefined) {
  const { system } = c.get("deps");
  const { companyId } = c.get("principal");
  const records = await whatsapps.in(system, companyId).records();
  if (whatsappId) {
    const conn = records.get(whatsappId);
    if (!conn) throw notFound("ERR_NO_WAPP_FOUND", `Connection ${whatsappId} does not exist`);
    return conn;
  }
  for (const conn of records.values()) if (conn.isDefault) return conn;
  throw new AppError("ERR_NO_DEF_WAPP_FOUND", {
    status: 400,
    message: SELECT_CONNECTION,
    fields: { whatsappId: SELECT_CONNECTION },
  });
}

/** Applies one PUT body to ticket `id` (server/usecases/ticket_transition.ts); the new ticket. */
async function updateOne(c: Ctx, id: number, body: TicketUpdate): Promise<Ticket> {
  const { deps, who, settings } = await scope(c);
  return await withConflictUser(c, () => transitionTicket(deps, { id, body, who, settings }));
}

/** Mounted at `/`: owns `/tickets…` and `/ticketsCount`. */
export function ticketRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireAuth();

  const listQuery = memoizedQuery(TicketListQuery);
  app.get("/tickets", auth, async (c) => {
    const { system, who, companyId, settings } = await scope(c);
    const q = listQuery(c);
    const { index } = await deskState(system, companyId);
    const search = q.searchParam ? await searchTickets(system, companyId, index, q.searchParam) : undefined;
    const page = queryTickets(index, q, who, settings, search?.ids);
    const lookups = await loadLookups(system, companyId);
    // The items' JSON is kept per ticket version (ticketItemJson): the answer joins it.
    const items = page.tickets.map((t) => ticketItemJson(t, lookups)).join(",");
    // With searchParam: whether the message index was still building (issue #23).
    const partial = search ? `,"partial":${search.partial}` : "";
    return c.body(`{"tickets":[${items}],"count":${page.count},"hasMore":${page.hasMore}${partial}}`, 200, {
      "content-type": "application/json",
    });
  });

  app.get("/ticketsCount", auth, async (c) => {
    const { system, who, companyId, settings } = await scope(c);
    const q = parseQuery(c, TicketListQuery);
    const { index } = await deskState(system, companyId);
    const base = { ...q, status: undefined, pageNumber: 1 };
    return c.json({
      openTicketsCount: countTickets(index, { ...base, status: "open" }, who, settings),
      pendingTicketsCount: countTickets(index, { ...base, status: "pending" }, who, settings),
      unreadGroupsCount: countTickets(index, {
        ...base,
        statuses: ["open", "pending"],
        isGroup: true,
        withUnreadMessages: true,
      }, who, settings),
    });
  });

  app.get("/tickets/u/:uuid", auth, async (c) => {
    const { system, who, companyId, settings } = await scope(c);
    const { index } = await deskState(system, companyId);
    const id = index.byUuid.get(c.req.param("uuid"));
    const ticket = id === undefined ? undefined : index.byId.get(id);
    if (!ticket) throw ticketMissing(c.req.param("uuid"));
    assertCanHandle(ticket, who, settings);
    return c.json(await itemOf(c, ticket));
  });

  app.get("/tickets/:id", auth, async (c) => {
    const { system, who, companyId, settings } = await scope(c);
    const id = idParam(c, "id", () => ticketMissing(c.req.param("id")));
    const ticket = (await deskState(system, companyId)).index.byId.get(id);
    if (!ticket) throw ticketMissing(id);
    assertCanHandle(ticket, who, settings);
    return c.json(await itemOf(c, ticket));
  });

  app.post("/tickets", auth, async (c) => {
    const { system, who, companyId, settings } = await scope(c);
    const body = await parseBody(c, TicketCreate);
    const queueId = body.queueId ?? null;
    if (queueId === null && !isManager(who)) {
      throw new AppError("ERR_VALIDATION", {
        status: 400,
        message: SELECT_QUEUE,
        fields: { queueId: SELECT_QUEUE },
      });
    }
    await assertRefs(c, body);
    const contact = await getContact(system, companyId, body.contactId);
    if (!contact) throw notFound("ERR_NO_CONTACT_FOUND", `Contact ${body.contactId} does not exist`);
    const conn = await connectionFor(c, body.whatsappId);
    const ticket = await withConflictUser(c, () =>
      deskOf(system, companyId).ask("create", {
        contactId: contact.id,
        whatsappId: conn.id,
        queueId,
        userId: body.userId ?? null,
        status: body.status,
        isGroup: contact.isGroup,
        channel: conn.channel || "whatsapp",
        who,
        settings,
      }));
    return c.json(await itemOf(c, ticket));
  });

  app.put("/tickets/multiUpdate", auth, async (c) => {
    const { ticketIds, ...body } = await parseBody(c, TicketMultiUpdate);
    await assertRefs(c, body);
    const results = await Promise.allSettled(ticketIds.map((id) => updateOne(c, id, body)));
    const updated: number[] = [];
    const failed: Array<{ id: number; error: string; message: string }> = [];
    results.forEach((result, i) => {
      if (result.status === "fulfilled") updated.push(ticketIds[i]);
      else {
        const e = result.reason;
        failed.push({
          id: ticketIds[i],
          error: e instanceof AppError ? e.code : "ERR_INTERNAL",
          message: e instanceof Error ? e.message : String(e),
        });
      }
    });
    return c.json({ updated, failed });
  });

  app.put("/tickets/:id", auth, async (c) => {
    const id = idParam(c, "id", () => ticketMissing(c.req.param("id")));
    // Found in the caller's company before the body is judged (another company's id: 404).
    if (!(await deskState(c.get("deps").system, c.get("principal").companyId)).index.byId.has(id)) throw ticketMissing(id);
    const body = await parseBody(c, TicketUpdate);
    await assertRefs(c, body);
    return c.json(await itemOf(c, await updateOne(c, id, body)));
  });

  app.delete("/tickets/:id", auth, async (c) => {
    const { deps, who, settings } = await scope(c);
    const id = idParam(c, "id", () => ticketMissing(c.req.param("id")));
    await deleteTicket(deps, id, who, settings);
    return c.json({ message: "ticket deleted" });
  });

  return app;
}
