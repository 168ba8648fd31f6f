/**
 * White-box fixtures for integration tests: records created through the same actor calls the
 * product uses (connections, contacts, users, settings, inbound tickets), without the HTTP
 * steps that other areas' tests already cover. Shared; add helpers, don't change these.
 */
import { findOrCreateContact } from "../../actors/contacts/mod.ts";
import { createUser } from "../../actors/platform/commands.ts";
import { settings as settingsColl } from "../../actors/platform/collections.ts";
import { openTicketForInbound } from "../../actors/tickets/mod.ts";
import { whatsapps } from "../../actors/whatsapps/collection.ts";
import type { Contact } from "../../domain/contact.ts";
import type { Profile, User } from "../../domain/user.ts";
import { newWhatsapp, type Whatsapp } from "../../domain/whatsapp.ts";
import type { Ticket } from "../../domain/ticket.ts";
import { hashPassword } from "../../server/auth/passwords.ts";
import { type Client, DEMO_PASSWORD, type TestServer } from "./server.ts";

/** A connection of the company (the default one unless `isDefault: false`). */
export async function makeConnection(
  server: TestServer,
  companyId: number,
  fields: Partial<Whatsapp> = {},
): Promise<Whatsapp> {
  return await whatsapps.in(server.deps.system, companyId).create((id, now) =>
    newWhatsapp(id, companyId, now, {
      name: `Conexão ${id}`,
      status: "CONNECTED",
      isDefault: true,
      token: crypto.randomUUID(),
      ...fields,
    })
  );
}

/** The company's default connection, created when it has none. */
export async function defaultConnection(server: TestServer, companyId: number): Promise<Whatsapp> {
  const records = await whatsapps.in(server.deps.system, companyId).list();
  return records.find((w) => w.isDefault) ?? await makeConnection(server, companyId);
}

/** A contact (found or created by number; a fresh number unless given). */
export async function makeContact(
  server: TestServer,
  companyId: number,
  fields: { name?: string; number?: string; isGroup?: boolean } = {},
): Promise<Contact> {
  const number = fields.number ?? `5511${crypto.getRandomValues(new Uint32Array(1))[0] % 1e9}`.padEnd(13, "7");
  const { contact } = await findOrCreateContact(server.deps.system, companyId, {
    number,
    name: fields.name ?? `Cliente ${number.slice(-4)}`,
    isGroup: fields.isGroup ?? false,
  });
  return contact;
}

/** A user of the company with the demo password, and a logged-in client for it. */
export async function makeUser(
  server: TestServer,
  companyId: number,
  fields: { name?: string; profile?: Profile; queueIds?: number[]; farewellMessage?: string } = {},
): Promise<{ user: User; client: Client }> {
  const passwordHash = await hashPassword(DEMO_PASSWORD, "fast");
  const tag = crypto.randomUUID().slice(0, 8);
  const user = await createUser(server.deps.system, {
    companyId,
    name: fields.name ?? `Agente ${tag}`,
    email: `agent-${tag}@fixtures.local`,
    passwordHash,
    profile: fields.profile ?? "user",
    queueIds: fields.queueIds ?? [],
    farewellMessage: fields.farewellMessage,
  });
  return { user, client: await server.login(user.email) };
}

/** Sets company settings (key → value) directly in the settings collection. */
export async function setSettings(
  server: TestServer,
  companyId: number,
  values: Record<string, string>,
): Promise<void> {
  const coll = settingsColl.in(server.deps.system, companyId);
  await coll.transact((view) => {
    const put = Object.entries(values).map(([key, value]) => {
      const old = [...view.records.values()].find((s) => s.key === key);
      return old
        ? { ...old, value, updatedAt: view.now }
        : { id: view.nextId(), companyId, key, value, createdAt: view.now, updatedAt: view.now };
    });
    return { put, reply: null };
  });
}

/** A pending ticket as an inbound message would open it (new contact unless given). */
export async function inboundTicket(
  server: TestServer,
  companyId: number,
  fields: { contact?: Contact; queueId?: number | null; isGroup?: boolean; whatsappId?: number } = {},
): Promise<Ticket> {
  const contact = fields.contact ?? await makeContact(server, companyId, { isGroup: fields.isGroup });
  const whatsappId = fields.whatsappId ?? (await defaultConnection(server, companyId)).id;
  const { ticket } = await openTicketForInbound(server.deps.system, companyId, {
    contactId: contact.id,
    whatsappId,
    isGroup: contact.isGroup,
    fromMe: false,
    queueId: fields.queueId,
  });
  return ticket;
}

/**
 * A pending demo-company ticket of the contact with `number` (found or created with `name`,
 * the number itself unless given), in `queueId` (the first demo queue unless given), opened
 * as an inbound message on the default connection would open it.
 */
export async function demoTicket(
  server: TestServer,
  number: string,
  fields: { name?: string; queueId?: number } = {},
): Promise<Ticket> {
  const companyId = server.demo!.companyId;
  const contact = await makeContact(server, companyId, { number, name: fields.name ?? number });
  return await inboundTicket(server, companyId, { contact, queueId: fields.queueId ?? server.demo!.queueIds[0] });
}

/**
 * Creates contacts `people` ([name, number]) through the API and, as the demo admin, a
 * group ticket (POST /creatGroupAndTicket) with the first two on connection `whatsappId`.
 * Resolves with the contact ids and the raw response (status and body).
 */
export async function groupTicketOf(
  server: TestServer,
  admin: Client,
  whatsappId: number,
  title: string,
  people: Array<[name: string, number: string]>,
) {
  const ids: number[] = [];
  for (const [name, number] of people) {
    const r = await admin.post("/contacts", { name, number });
    if (r.status !== 200) throw new Error(`POST /contacts ${name}: ${r.status} ${JSON.stringify(r.body)}`);
    ids.push(r.body.id);
  }
  const created = await admin.post("/creatGroupAndTicket", {
    contactsAddGroup: [ids[0], ids[1]],
    titleGroup: title,
    queueId: server.demo!.queueIds[0],
    whatsappId,
    userId: server.demo!.logins.find((l) => l.email === "admin@demo.local")!.id,
    status: "open",
  });
  return { ids, created };
}
