/**
 * The wallet list (spec 002 §2.13, §7): contacts assigned to a user. A user sees its own
 * wallet (naming another user's is a 403); whoever holds `wallet:fullUserList` (admin) sees
 * any user's wallet (`userId`, the page's user picker), or every wallet without one.
 * Assigning and removing one contact go through PUT /contacts/{id} (`walleteUserId`); the
 * contacts screen's 'Adicionar a carteira' (spec 001 §2.14, §6: admin only) assigns many at
 * once through PUT /wallets/contacts.
 */
import { Hono } from "hono";
import { pageContacts, setWallet } from "../../actors/contacts/mod.ts";
import { getCompanyUser } from "../../actors/platform/lookup.ts";
import { WalletAssign, WalletListQuery } from "../../domain/contact.ts";
import { AppError, forbidden, notFound } from "../../domain/errors.ts";
import { can } from "../../domain/permissions.ts";
import { requireAuth, requirePermission } from "../auth/middleware.ts";
import type { AppEnv } from "../deps.ts";
import { parseBody, parseQuery } from "../http/validate.ts";
import { CONTACT_PAGE_SIZE, contactRows } from "./contacts.ts";

/** The wallet routes, mounted at `/wallets`. */
export function walletRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.on("GET", ["/contacts", "/contacts/"], requireAuth(), async (c) => {
    const query = parseQuery(c, WalletListQuery);
    const who = c.get("principal");
    const { system } = c.get("deps");
    const all = can(who, "wallet:fullUserList");
    if (!all && query.userId !== undefined && query.userId !== who.id) throw forbidden("Sem Permissão!");
    if (all && query.userId !== undefined && !(await getCompanyUser(system, who.companyId, query.userId))) {
      throw notFound("ERR_NO_USER_FOUND", `User ${query.userId} does not exist`);
    }
    const owner = all ? query.userId : who.id;
    const page = await pageContacts(system, who.companyId, {
      searchParam: query.searchParam,
      offset: (query.pageNumber - 1) * CONTACT_PAGE_SIZE,
      limit: CONTACT_PAGE_SIZE,
      where: owner === undefined ? (x) => x.walleteUserId !== null : (x) => x.walleteUserId === owner,
    });
    return c.json(await contactRows(c.get("deps").system, who.companyId, page));
  });

  /**
   * Puts every listed contact of the company in `walleteUserId`'s wallet (null: none).
   * Ids that are not the company's contacts are skipped, so `count` says how many changed
   * hands; a user outside the company is a 404.
   */
  app.put("/contacts", requireAuth(), requirePermission("contacts-page:assignUsers"), async (c) => {
    const { contactIds, walleteUserId } = await parseBody(c, WalletAssign);
    const { system } = c.get("deps");
    const companyId = c.get("principal").companyId;
    if (walleteUserId !== null && !(await getCompanyUser(system, companyId, walleteUserId))) {
      throw notFound("ERR_NO_USER_FOUND", `User ${walleteUserId} does not exist`);
    }
    let count = 0;
    for (const id of new Set(contactIds)) {
      try {
        await setWallet(system, companyId, id, walleteUserId);
        count++;
      } catch (error) {
        if (!(error instanceof AppError && error.code === "ERR_NO_CONTACT_FOUND")) throw error;
      }
    }
    return c.json({ count, walleteUserId });
  });

  return app;
}
