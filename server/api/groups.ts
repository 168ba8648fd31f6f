/**
 * WhatsApp groups made from the product (spec 000 §5, §6, §7): `POST /creatGroupAndTicket`
 * creates the group on a connection with the chosen contacts, its group contact and an open
 * ticket for it; `GET|POST /groupUsers` list and add the participants of a group ticket
 * (admin or the ticket's owner). Everything is checked before WhatsApp is asked, so a refused
 * call never leaves a group behind.
 */
import { type Context, Hono } from "hono";
import { findContactByNumber, findOrCreateContact, getContact } from "../../actors/contacts/mod.ts";
import { companySettings, getCompanyUser } from "../../actors/platform/lookup.ts";
import { queues } from "../../actors/queues/collection.ts";
import { deskOf, getTicket, loadLookups, ticketItem, ticketMissing } from "../../actors/tickets/mod.ts";
import { whatsapps } from "../../actors/whatsapps/collection.ts";
import type { Contact } from "../../domain/contact.ts";
import { AppError, forbidden, notFound } from "../../domain/errors.ts";
import { GroupCreate, GroupUsersAdd, GroupUsersQuery } from "../../domain/group.ts";
import type { Principal } from "../../domain/permissions.ts";
import { decide, NO_PERMISSION, type Ticket } from "../../domain/ticket.ts";
import { requireAuth } from "../auth/middleware.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { parseBody, parseQuery } from "../http/validate.ts";

/** A participant as `GET /groupUsers` lists it: the company's contact, or just the number. */
export type GroupUser =
  | Contact
  | { id: null; name: string; number: string; profilePicUrl: string; isGroup: false };

/** The company's individual contacts with these ids (404 for a missing one, 400 for a group). */
async function participantContacts(deps: AppDeps, companyId: number, ids: number[]): Promise<Contact[]> {
  const out: Contact[] = [];
  for (const id of new Set(ids)) {
    const contact = await getContact(deps.system, companyId, id);
    if (!contact) throw notFound("ERR_NO_CONTACT_FOUND", `Contact ${id} does not exist`);
    if (contact.isGroup) {
      throw new AppError("ERR_WAPP_INVALID_CONTACT", { status: 400, message: `Contact ${id} is a group` });
    }
    out.push(contact);
  }
  return out;
}

/** Creates the group on WhatsApp, its contact and its ticket; see the module doc. */
async function createGroupTicket(deps: AppDeps, who: Principal, body: GroupCreate): Promise<Ticket> {
  const { system } = deps;
  const companyId = who.companyId;
  if (!(await queues.in(system, companyId).get(body.queueId))) {
    throw notFound("ERR_NO_QUEUE_FOUND", `Queue ${body.queueId} does not exist`);
  }
  const conn = await whatsapps.in(system, companyId).get(body.whatsappId);
  if (!conn) throw notFound("ERR_NO_WAPP_FOUND", `Connection ${body.whatsappId} does not exist`);
  const userId = body.userId ?? who.id;
  if (!(await getCompanyUser(system, companyId, userId))) {
    throw notFound("ERR_NO_USER_FOUND", `User ${userId} does not exist`);
  }
  const members = await participantContacts(deps, companyId, body.contactsAddGroup);
  const settings = await companySettings(system, companyId);
  const channel = conn.channel || "whatsapp";
  const fields = { contactId: 0, whatsappId: conn.id, queueId: body.queueId, userId, status: body.status, isGroup: true, channel };
  // Dry run of the desk's opening rules (queue of the user, assignee) before WhatsApp is asked.
  decide(null, { type: "create", id: 0, uuid: "", companyId, ...fields }, who, settings, Date.now());
  const group = await deps.channels.createGroup(companyId, conn.id, body.titleGroup, members.map((c) => c.number));
  const { contact } = await findOrCreateContact(system, companyId, {
    number: group.id,
    name: body.titleGroup,
    isGroup: true,
    channel,
  });
  return await deskOf(system, companyId).ask("create", { ...fields, contactId: contact.id, who, settings });
}

/** The group ticket `id` and its group contact, for its owner or an admin. */
async function managedGroup(deps: AppDeps, who: Principal, id: number): Promise<{ ticket: Ticket; group: Contact }> {
  const ticket = await getTicket(deps.system, who.companyId, id);
  if (!ticket) throw ticketMissing(id);
  if (who.profile !== "admin" && ticket.userId !== who.id) throw forbidden(NO_PERMISSION);
  const group = await getContact(deps.system, who.companyId, ticket.contactId);
  if (!ticket.isGroup || !group?.isGroup || ticket.whatsappId === null) {
    throw new AppError("ERR_VALIDATION", { status: 400, message: `Ticket ${id} is not a group` });
  }
  return { ticket, group };
}

/** The participants of the group as the company's contacts (the connection's own number left out). */
async function groupUsers(deps: AppDeps, ticket: Ticket, group: Contact): Promise<GroupUser[]> {
  const { companyId } = ticket;
  const whatsappId = ticket.whatsappId!;
  const own = (await whatsapps.in(deps.system, companyId).get(whatsappId))?.number ?? "";
  const numbers = await deps.channels.groupParticipants(companyId, whatsappId, group.number);
  const users: GroupUser[] = [];
  for (const number of numbers) {
    if (number === own) continue;
    const contact = await findContactByNumber(deps.system, companyId, number);
    users.push(contact ?? { id: null, name: number, number, profilePicUrl: "", isGroup: false });
  }
  return users;
}

/** Mounted at `/`: owns `/creatGroupAndTicket` and `/groupUsers`. */
export function groupRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireAuth();
  const scope = (c: Context<AppEnv>) => ({ deps: c.get("deps"), who: c.get("principal") });

  app.post("/creatGroupAndTicket", auth, async (c) => {
    const { deps, who } = scope(c);
    const ticket = await createGroupTicket(deps, who, await parseBody(c, GroupCreate));
    return c.json(ticketItem(ticket, await loadLookups(deps.system, who.companyId)));
  });

  app.get("/groupUsers", auth, async (c) => {
    const { deps, who } = scope(c);
    const { groupId } = parseQuery(c, GroupUsersQuery);
    const { ticket, group } = await managedGroup(deps, who, groupId);
    return c.json(await groupUsers(deps, ticket, group));
  });

  app.post("/groupUsers", auth, async (c) => {
    const { deps, who } = scope(c);
    const body = await parseBody(c, GroupUsersAdd);
    const { ticket, group } = await managedGroup(deps, who, body.groupId);
    const members = await participantContacts(deps, who.companyId, body.users);
    await deps.channels.addGroupParticipants(who.companyId, ticket.whatsappId!, group.number, members.map((m) => m.number));
    return c.json(await groupUsers(deps, ticket, group));
  });

  return app;
}
