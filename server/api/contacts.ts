/**
 * Contacts (spec 000 §5, §7; 001 §2.14, §6, §7): list, pickers, a contact card's lookup,
 * create (a number not on WhatsApp is refused: server/usecases/whatsapp_numbers.ts) and edit
 * with the wallet rules, delete (single and bulk), block. Import and export live in
 * contact_import.ts and contact_export.ts; the wallet list in wallets.ts.
 */
import { Hono } from "hono";
import {
  contactMissing,
  createContact,
  deleteContact,
  deleteContacts,
  findContactByNumber,
  getContact,
  pageContacts,
  updateContact,
} from "../../actors/contacts/mod.ts";
import { companySettings, companyUsers, getCompanyUser } from "../../actors/platform/lookup.ts";
import { activeTicketOfContact, deskState, ticketsByContact } from "../../actors/tickets/mod.ts";
import { whatsapps } from "../../actors/whatsapps/collection.ts";
import {
  type Contact,
  ContactBlockBody,
  ContactBulkDelete,
  ContactCreateQuery,
  ContactInput,
  contactListItem,
  ContactListQuery,
  ContactLookupQuery,
  ContactPhotoQuery,
  ContactUpdate,
  normalizeNumber,
  walletChangeRefusal,
} from "../../domain/contact.ts";
import { AppError, forbidden, notFound } from "../../domain/errors.ts";
import { SearchPage } from "../../domain/paging.ts";
import { can, type Principal } from "../../domain/permissions.ts";
import { numberOnWhatsapp } from "../usecases/whatsapp_numbers.ts";
import { canSeeTicket } from "../../domain/visibility.ts";
import type { ActorSystem } from "../../actors/_runtime/system.ts";
import { requireAuth, requirePermission } from "../auth/middleware.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { idParam, parseBody, parseQuery } from "../http/validate.ts";
import { companyCountry, readPhone } from "../http/phone.ts";

/** Contacts per page of GET /contacts/ and GET /wallets/contacts/. */
export const CONTACT_PAGE_SIZE = 20;

/**
 * A page of contacts as the contacts and wallet screens show them (spec 001 §2.14, §3;
 * 002 §3): each with `tickets` holding its latest ticket (`id`, `uuid`, `status`,
 * `updatedAt`: the "last interaction") and `walleteUser` (`id`, `name`) when in a wallet.
 */
export async function contactRows(
  system: ActorSystem,
  companyId: number,
  page: { contacts: Contact[]; count: number; hasMore: boolean },
) {
  const users = new Map((await companyUsers(system, companyId)).map((u) => [u.id, u.name]));
  const contacts = await Promise.all(page.contacts.map(async (contact) => {
    const [latest] = await ticketsByContact(system, companyId, contact.id);
    const wallet = contact.walleteUserId;
    return {
      ...contact,
      tickets: latest
        ? [{ id: latest.id, uuid: latest.uuid, status: latest.status, updatedAt: latest.updatedAt }]
        : [],
      walleteUser: wallet !== null && users.has(wallet)
        ? { id: wallet, name: users.get(wallet)! }
        : null,
    };
  }));
  return { contacts, count: page.count, hasMore: page.hasMore };
}


/**
 * Checks a wallet change against the rules (domain/contact.ts) and that the target user
 * belongs to the company; throws the refusal.
 */
export async function checkWalletChange(
  system: ActorSystem,
  who: Principal,
  contact: Pick<Contact, "name" | "walleteUserId">,
  next: number | null,
): Promise<void> {
  const refusal = walletChangeRefusal(
    { id: who.id, fullWallet: can(who, "wallet:fullUserList") },
    contact,
    next,
  );
  if (refusal) throw forbidden(refusal);
  if (next !== null && !(await getCompanyUser(system, who.companyId, next))) {
    throw notFound("ERR_NO_USER_FOUND", `User ${next} does not exist`);
  }
}

/**
 * The full-size profile picture of `number` as the connection `whatsappId` (else the
 * company's default connection) sees it now; "" when there is none or the connection cannot
 * be asked (not connected, no such connection).
 */
async function freshPicture(deps: AppDeps, companyId: number, number: string, whatsappId?: number): Promise<string> {
  const records = await whatsapps.in(deps.system, companyId).records();
  const conn = whatsappId ? records.get(whatsappId) : [...records.values()].find((w) => w.isDefault);
  if (!conn) return "";
  return (await deps.channels.profilePicture(companyId, conn.id, number).catch(() => null)) ?? "";
}

/** The contact routes, mounted at `/contacts`. */
export function contactRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireAuth();
  const canDelete = requirePermission("contacts-page:deleteContact");
  const missing = (c: { req: { param(name: string): string } }) => () =>
    contactMissing(Number(c.req.param("id")) || 0);

  app.get("/", auth, async (c) => {
    const query = parseQuery(c, SearchPage);
    const { system } = c.get("deps");
    const page = await pageContacts(system, c.get("principal").companyId, {
      searchParam: query.searchParam,
      offset: (query.pageNumber - 1) * CONTACT_PAGE_SIZE,
      limit: CONTACT_PAGE_SIZE,
    });
    return c.json(await contactRows(system, c.get("principal").companyId, page));
  });

  app.get("/list", auth, async (c) => {
    const query = parseQuery(c, ContactListQuery);
    const { contacts } = await pageContacts(c.get("deps").system, c.get("principal").companyId, {
      searchParam: query.searchParam || query.name,
      offset: 0,
      limit: Infinity,
      ...(query.isGroup === undefined ? {} : { where: (contact: Contact) => contact.isGroup === query.isGroup }),
    });
    return c.json(contacts.map(contactListItem));
  });

  app.get("/photo", auth, async (c) => {
    const { number, whatsappId } = parseQuery(c, ContactPhotoQuery);
    const deps = c.get("deps");
    const companyId = c.get("principal").companyId;
    const found = await findContactByNumber(deps.system, companyId, number);
    const fresh = await freshPicture(deps, companyId, number, whatsappId);
    return c.json({ profilePicUrl: fresh || found?.profilePicUrl || "" });
  });

  /**
   * A contact card's lookup (spec 000 §5 "vCard lookup"): the contact that has the number, if
   * any, and whether the number is on WhatsApp (`invalido`; `checked` false when no connection
   * could tell, contact_number.ts). Nothing is created: a card shown in a conversation adds no
   * contact until an agent chooses to talk to it ("Conversar" creates it with POST /contacts).
   * That departs from the product the spec was read from, which created the contact on sight;
   * scrolling through forwarded cards then filled the address book with people nobody contacted.
   */
  app.get("/lookup", auth, async (c) => {
    const { number, whatsappId } = parseQuery(c, ContactLookupQuery);
    const deps = c.get("deps");
    const companyId = c.get("principal").companyId;
    const [found, onWhatsapp] = await Promise.all([
      findContactByNumber(deps.system, companyId, number),
      numberOnWhatsapp(deps, companyId, number, whatsappId),
    ]);
    return c.json({
      contact: found ? { ...contactListItem(found), profilePicUrl: found.profilePicUrl } : null,
      invalido: onWhatsapp === false,
      checked: onWhatsapp !== null,
    });
  });

  app.get("/nt", auth, async (c) => {
    const query = parseQuery(c, SearchPage);
    const { system } = c.get("deps");
    const companyId = c.get("principal").companyId;
    const { index } = await deskState(system, companyId);
    const page = await pageContacts(system, companyId, {
      searchParam: query.searchParam,
      offset: (query.pageNumber - 1) * CONTACT_PAGE_SIZE,
      limit: CONTACT_PAGE_SIZE,
      where: (x) => (index.byContact.get(x.id)?.size ?? 0) > 0,
    });
    return c.json(await contactRows(system, companyId, page));
  });

  app.get("/:id/active-ticket", auth, async (c) => {
    const id = idParam(c, "id", missing(c));
    const { system } = c.get("deps");
    const companyId = c.get("principal").companyId;
    if (!(await getContact(system, companyId, id))) throw contactMissing(id);
    const ticket = await activeTicketOfContact(system, companyId, id);
    if (!ticket) return c.json(null);
    // A user who may not see the ticket (another queue) learns only what the contacts list
    // shows of it; the whole record would hand over its last message (a survey link's key).
    if (canSeeTicket(c.get("principal"), ticket, await companySettings(system, companyId))) return c.json(ticket);
    return c.json({ id: ticket.id, uuid: ticket.uuid, status: ticket.status, updatedAt: ticket.updatedAt });
  });

  app.get("/:id", auth, async (c) => {
    const id = idParam(c, "id", missing(c));
    const contact = await getContact(c.get("deps").system, c.get("principal").companyId, id);
    if (!contact) throw contactMissing(id);
    return c.json(contact);
  });

  app.post("/", auth, async (c) => {
    const { onDuplicate } = parseQuery(c, ContactCreateQuery);
    const typed = await parseBody(c, ContactInput);
    const { system } = c.get("deps");
    const who = c.get("principal");
    const input = { ...typed, number: readPhone(typed.number, await companyCountry(system, who.companyId)) };
    const walleteUserId = input.walleteUserId ?? null;
    await checkWalletChange(system, who, { name: input.name, walleteUserId: null }, walleteUserId);
    const existing = await findContactByNumber(system, who.companyId, input.number);
    if (existing && onDuplicate === "report") {
      return c.json({ alreadyExists: true, existingContact: existing, invalido: false });
    }
    // Spec 000 §7–§8: a number not on WhatsApp is not saved (`invalido`); unknown saves unchecked.
    if (!existing && (await numberOnWhatsapp(c.get("deps"), who.companyId, input.number)) === false) {
      const invalid = { alreadyExists: false, existingContact: null, invalido: true };
      if (onDuplicate === "report") return c.json(invalid);
      throw new AppError("ERR_WAPP_INVALID_CONTACT", {
        status: 400,
        message: `${input.number} is not a WhatsApp number`,
        extra: invalid,
      });
    }
    try {
      const contact = await createContact(system, who.companyId, { ...input, walleteUserId });
      return c.json({ ...contact, alreadyExists: false, existingContact: null, invalido: false });
    } catch (error) {
      if (error instanceof AppError && error.code === "ERR_DUPLICATED_CONTACT") {
        throw new AppError("ERR_DUPLICATED_CONTACT", {
          status: 400,
          message: error.message,
          extra: { alreadyExists: true, invalido: false, ...error.extra },
        });
      }
      throw error;
    }
  });

  app.put("/block/:id", auth, async (c) => {
    const id = idParam(c, "id", missing(c));
    const { system } = c.get("deps");
    const companyId = c.get("principal").companyId;
    // Found in the caller's company before the body is judged (another company's id: 404).
    if (!(await getContact(system, companyId, id))) throw contactMissing(id);
    const { active } = await parseBody(c, ContactBlockBody);
    const contact = await updateContact(system, companyId, id, { active });
    return c.json(contact);
  });

  app.put("/:id", auth, async (c) => {
    const id = idParam(c, "id", missing(c));
    const { system } = c.get("deps");
    const who = c.get("principal");
    const old = await getContact(system, who.companyId, id);
    if (!old) throw contactMissing(id);
    const patch = await parseBody(c, ContactUpdate);
    // A new number of a person is read for the company (#41); a group's id, or the number
    // as stored (an older one the rules would now refuse), is kept as it is.
    if (patch.number !== undefined) {
      patch.number = old.isGroup || normalizeNumber(patch.number) === old.number
        ? normalizeNumber(patch.number)
        : readPhone(patch.number, await companyCountry(system, who.companyId));
    }
    if (patch.walleteUserId !== undefined) {
      await checkWalletChange(system, who, old, patch.walleteUserId);
    }
    return c.json(await updateContact(system, who.companyId, id, patch));
  });

  app.delete("/bulk-delete", auth, canDelete, async (c) => {
    const { contactIds } = await parseBody(c, ContactBulkDelete);
    const removed = await deleteContacts(
      c.get("deps").system,
      c.get("principal").companyId,
      contactIds,
    );
    return c.json({ message: "Contacts deleted", count: removed.length });
  });

  app.delete("/:id", auth, canDelete, async (c) => {
    const id = idParam(c, "id", missing(c));
    await deleteContact(c.get("deps").system, c.get("principal").companyId, id);
    return c.json({ message: "Contact deleted" });
  });

  return app;
}
