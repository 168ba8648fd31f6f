/**
 * Contact lists (issue #19; spec 002 §2.6, 000 §2: admin and supervisor, plan useCampaigns):
 * `GET/POST/PUT/DELETE /contact-lists`, `GET /contact-lists/list` (the campaign dialog's
 * select), and three ways to fill a list: `POST /contact-lists/{id}/upload` (.xlsx/.csv with
 * the contacts import's parser and row rules), `/add-tags` (the contacts of tickets carrying
 * any of the tags) and `/add-contacts` (existing contacts). Numbers already in the list are
 * skipped; new ones are checked on the connection in the background (actors/contact_lists).
 */
import { Hono } from "hono";
import {
  addListItems,
  contactLists,
  listCounts,
  removeAllListItems,
  wakeChecker,
} from "../../actors/contact_lists/mod.ts";
import { contactsOf } from "../../actors/contacts/mod.ts";
import { deskState } from "../../actors/tickets/mod.ts";
import {
  AddFromContacts,
  AddFromTags,
  type ContactList,
  ContactListInput,
  type ListCounts,
  type NewListItem,
} from "../../domain/contact_list.ts";
import { notFound } from "../../domain/errors.ts";
import { companyChannel } from "../../domain/events.ts";
import { matchesSearch, paginate, SearchPage } from "../../domain/paging.ts";
import { requireAuth, requirePermission } from "../auth/middleware.ts";
import { requireCampaignsEnabled, requirePlan } from "../auth/plan_gate.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { idParam, parseBody, parseQuery } from "../http/validate.ts";
import { readUploadedRows } from "./contact_import.ts";

/** File types of a list import (the brief: .xlsx and .csv). */
const IMPORT_TYPES = [".csv", ".xlsx"] as const;

/** The 404 of a list that does not exist in the company. */
export const listMissing = (id: number | string) => notFound("ERR_NOT_FOUND", `Contact list ${id} does not exist`);

/** Auth, role (admin/supervisor) and plan gates of every contact-list route. */
export function contactListGates() {
  return [requireAuth(), requirePermission("campaigns:view"), requirePlan("useCampaigns"), requireCampaignsEnabled()] as const;
}

const EMPTY_COUNTS: ListCounts = { contactsCount: 0, pendingCount: 0, invalidCount: 0 };

/** The list `id` of the company, or 404. */
export async function companyList(deps: Pick<AppDeps, "system">, companyId: number, id: number): Promise<ContactList> {
  const list = await contactLists.in(deps.system, companyId).get(id);
  if (!list) throw listMissing(id);
  return list;
}


/** The contacts (not groups) of tickets carrying any of `tagIds`, one per contact. */
async function contactsWithTags(deps: AppDeps, companyId: number, tagIds: number[]): Promise<NewListItem[]> {
  const { index } = await deskState(deps.system, companyId);
  const contactIds = new Set<number>();
  for (const tag of tagIds) {
    for (const ticketId of index.byTag.get(tag) ?? []) {
      const ticket = index.byId.get(ticketId);
      if (ticket) contactIds.add(ticket.contactId);
    }
  }
  return await contactRows(deps, companyId, [...contactIds]);
}

/** The named contacts (not groups) as list rows, in the order given; unknown ids are skipped. */
async function contactRows(deps: AppDeps, companyId: number, ids: number[]): Promise<NewListItem[]> {
  const contacts = await contactsOf(deps.system, companyId);
  return ids.flatMap((id) => {
    const c = contacts.get(id);
    return c && !c.isGroup ? [{ name: c.name, number: c.number, email: c.email || null }] : [];
  });
}

/** The contact-list routes, mounted at `/contact-lists`. */
export function contactListRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const gate = contactListGates();
  const idOf = (c: Parameters<typeof idParam>[0]) => idParam(c, "id", () => listMissing(c.req.param("id") ?? ""));

  app.get("/", ...gate, async (c) => {
    const query = parseQuery(c, SearchPage);
    const { system } = c.get("deps");
    const companyId = c.get("principal").companyId;
    const all = (await contactLists.in(system, companyId).list()).reverse();
    const page = paginate(all.filter((l) => matchesSearch(query.searchParam, l.name)), query.pageNumber);
    const counts = await listCounts(system, companyId);
    const records = page.rows.map((l) => ({ ...l, ...(counts.get(l.id) ?? EMPTY_COUNTS) }));
    // A wake lost in a crash (items durable, checker not yet armed) is redone here.
    await wakeChecker(system, companyId);
    return c.json({ records, count: page.count, hasMore: page.hasMore });
  });

  app.get("/list", ...gate, async (c) => {
    const all = await contactLists.in(c.get("deps").system, c.get("principal").companyId).list();
    return c.json(all.sort((a, b) => a.name.localeCompare(b.name, "pt") || a.id - b.id));
  });

  app.get("/:id", ...gate, async (c) => {
    const companyId = c.get("principal").companyId;
    const list = await companyList(c.get("deps"), companyId, idOf(c));
    const counts = (await listCounts(c.get("deps").system, companyId)).get(list.id) ?? EMPTY_COUNTS;
    return c.json({ ...list, ...counts });
  });

  app.post("/", ...gate, async (c) => {
    const input = await parseBody(c, ContactListInput);
    const companyId = c.get("principal").companyId;
    const list = await contactLists.in(c.get("deps").system, companyId).create((id, now) => ({
      id,
      companyId,
      name: input.name,
      createdAt: now,
      updatedAt: now,
    }));
    return c.json({ ...list, ...EMPTY_COUNTS });
  });

  app.put("/:id", ...gate, async (c) => {
    const id = idOf(c);
    const companyId = c.get("principal").companyId;
    // Found in the caller's company before the body is judged (another company's id: 404).
    await companyList(c.get("deps"), companyId, id);
    const input = await parseBody(c, ContactListInput);
    const list = await contactLists.in(c.get("deps").system, companyId).update(
      id,
      (old, now) => ({ ...old, name: input.name, updatedAt: now }),
      () => listMissing(id),
    );
    return c.json(list);
  });

  app.delete("/:id", ...gate, async (c) => {
    const id = idOf(c);
    const { system } = c.get("deps");
    const companyId = c.get("principal").companyId;
    await contactLists.in(system, companyId).remove(id, () => listMissing(id));
    await removeAllListItems(system, companyId, id);
    return c.json({ message: "Contact list deleted" });
  });

  app.post("/:id/upload", ...gate, async (c) => {
    const deps = c.get("deps");
    const who = c.get("principal");
    const list = await companyList(deps, who.companyId, idOf(c));
    const { valid, errors } = await readUploadedRows(c, IMPORT_TYPES);
    const rows = valid.map((r) => ({ name: r.name, number: r.number, email: r.email || null }));
    const outcome = await addListItems(deps.system, who.companyId, list.id, rows, (done, total) =>
      deps.bus.publish({
        companyId: who.companyId,
        channel: companyChannel(who.companyId, "ContactList"),
        data: { action: "progress", contactListId: list.id, done, total },
        scope: { kind: "users", userIds: [who.id] },
      }));
    return c.json({
      valid: valid.length,
      invalid: errors.length,
      created: outcome.created.length,
      duplicated: outcome.duplicated,
      errors: errors.slice(0, 100),
    });
  });

  app.post("/:id/add-tags", ...gate, async (c) => {
    const deps = c.get("deps");
    const companyId = c.get("principal").companyId;
    const list = await companyList(deps, companyId, idOf(c));
    const { tags } = await parseBody(c, AddFromTags);
    const rows = await contactsWithTags(deps, companyId, tags);
    const outcome = await addListItems(deps.system, companyId, list.id, rows);
    return c.json({ found: rows.length, created: outcome.created.length, duplicated: outcome.duplicated });
  });

  app.post("/:id/add-contacts", ...gate, async (c) => {
    const deps = c.get("deps");
    const companyId = c.get("principal").companyId;
    const list = await companyList(deps, companyId, idOf(c));
    const { contactIds } = await parseBody(c, AddFromContacts);
    const rows = await contactRows(deps, companyId, contactIds);
    const outcome = await addListItems(deps.system, companyId, list.id, rows);
    return c.json({ found: rows.length, created: outcome.created.length, duplicated: outcome.duplicated });
  });

  return app;
}
