/**
 * Contact-list items (issue #19): `GET /contact-list-items?contactListId&searchParam&pageNumber`
 * → `{ records, count, hasMore }` in id order, and `GET/POST/PUT/DELETE /contact-list-items`
 * with name, number, email (isWhatsappValid is the checker's, never the client's). Same gates
 * as the lists (contact_lists.ts).
 */
import { Hono } from "hono";
import { z } from "zod";
import {
  addListItems,
  allListItems,
  getListItem,
  itemMissing,
  removeListItem,
  updateListItem,
} from "../../actors/contact_lists/mod.ts";
import { ContactListItemInput, ContactListItemQuery } from "../../domain/contact_list.ts";
import { normalizeNumber } from "../../domain/contact.ts";
import { AppError } from "../../domain/errors.ts";
import { matchesSearch, paginate } from "../../domain/paging.ts";
import type { AppEnv } from "../deps.ts";
import { idParam, parseBody, parseQuery, parseWith } from "../http/validate.ts";
import { companyCountry, readPhone } from "../http/phone.ts";
import { companyList, contactListGates } from "./contact_lists.ts";

/** The item routes, mounted at `/contact-list-items`. */
export function contactListItemRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const gate = contactListGates();
  const idOf = (c: Parameters<typeof idParam>[0]) => idParam(c, "id", () => itemMissing(c.req.param("id") ?? ""));

  app.get("/", ...gate, async (c) => {
    const query = parseQuery(c, ContactListItemQuery);
    const deps = c.get("deps");
    const companyId = c.get("principal").companyId;
    await companyList(deps, companyId, query.contactListId);
    const all = await allListItems(deps.system, companyId, query.contactListId);
    const hits = all.filter((i) => matchesSearch(query.searchParam, i.name, i.number, i.email));
    const page = paginate(hits, query.pageNumber);
    return c.json({ records: page.rows, count: page.count, hasMore: page.hasMore });
  });

  app.get("/:id", ...gate, async (c) => {
    const id = idOf(c);
    const item = await getListItem(c.get("deps").system, c.get("principal").companyId, id);
    if (!item) throw itemMissing(id);
    return c.json(item);
  });

  app.post("/", ...gate, async (c) => {
    const typed = await parseBody(c, ContactListItemInput);
    const deps = c.get("deps");
    const companyId = c.get("principal").companyId;
    const input = { ...typed, number: readPhone(typed.number, await companyCountry(deps.system, companyId)) };
    await companyList(deps, companyId, input.contactListId);
    const { created } = await addListItems(deps.system, companyId, input.contactListId, [input]);
    if (created.length === 0) {
      throw new AppError("ERR_DUPLICATED_CONTACT", {
        status: 409,
        message: `Number ${input.number} is already in contact list ${input.contactListId}`,
        fields: { number: "ERR_DUPLICATED_CONTACT" },
      });
    }
    return c.json(created[0]);
  });

  app.put("/:id", ...gate, async (c) => {
    const id = idOf(c);
    const deps = c.get("deps");
    const companyId = c.get("principal").companyId;
    const old = await getListItem(deps.system, companyId, id);
    if (!old) throw itemMissing(id);
    const body = await parseBody(c, z.record(z.string(), z.unknown()));
    // Fields not sent keep their stored values; the merged whole is checked as on create.
    const input = parseWith(ContactListItemInput, { ...old, ...body });
    await companyList(deps, companyId, input.contactListId);
    const { contactListId, name, email } = input;
    // The stored number, unchanged, stays as it is; a new one is read for the company (#41).
    const number = normalizeNumber(input.number) === old.number
      ? old.number
      : readPhone(input.number, await companyCountry(deps.system, companyId));
    return c.json(await updateListItem(deps.system, companyId, id, { contactListId, name, number, email }));
  });

  app.delete("/:id", ...gate, async (c) => {
    const id = idOf(c);
    await removeListItem(c.get("deps").system, c.get("principal").companyId, id);
    return c.json({ message: "Contact list item deleted" });
  });

  return app;
}

