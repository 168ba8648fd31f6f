/**
 * The wallet list (spec 002 §2.13, §7): contacts assigned to a user. A user sees its own
 * wallet; whoever holds `wallet:fullUserList` (admin) sees every contact in any wallet.
 * Assigning and removing go through PUT /contacts/{id} (`walleteUserId`).
 */
import { Hono } from "hono";
import { pageContacts } from "../../actors/contacts/mod.ts";
import { SearchPage } from "../../domain/paging.ts";
import { can } from "../../domain/permissions.ts";
import { requireAuth } from "../auth/middleware.ts";
import type { AppEnv } from "../deps.ts";
import { parseQuery } from "../http/validate.ts";
import { CONTACT_PAGE_SIZE, contactRows } from "./contacts.ts";

/** The wallet routes, mounted at `/wallets`. */
export function walletRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.on("GET", ["/contacts", "/contacts/"], requireAuth(), async (c) => {
    const query = parseQuery(c, SearchPage);
    const who = c.get("principal");
    const all = can(who, "wallet:fullUserList");
    const page = await pageContacts(c.get("deps").system, who.companyId, {
      searchParam: query.searchParam,
      offset: (query.pageNumber - 1) * CONTACT_PAGE_SIZE,
      limit: CONTACT_PAGE_SIZE,
      where: all ? (x) => x.walleteUserId !== null : (x) => x.walleteUserId === who.id,
    });
    return c.json(await contactRows(c.get("deps").system, who.companyId, page));
  });

  return app;
}
