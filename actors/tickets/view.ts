/**
 * The ticket as lists and events show it (spec 000 §2 list item, §3): the record with its
 * contact, queue, user, connection and tags joined from the in-memory collections, dates as
 * ISO text. One shape for GET /tickets, PUT replies and `company-{id}-ticket` events.
 */
import type { ActorSystem } from "../_runtime/system.ts";
import type { ReadonlyIdMap } from "../_runtime/dense_id_map.ts";
import { contactsNow, contactsOf } from "../contacts/mod.ts";
import { PLATFORM, users } from "../platform/collections.ts";
import { queues } from "../queues/collection.ts";
import { tags } from "../tags/collection.ts";
import { whatsapps } from "../whatsapps/collection.ts";
import type { Contact } from "../../domain/contact.ts";
import type { Queue } from "../../domain/queue.ts";
import type { Tag } from "../../domain/tag.ts";
import type { Ticket } from "../../domain/ticket.ts";
import { isoDate } from "../../domain/iso_date.ts";
import type { User } from "../../domain/user.ts";
import type { Whatsapp } from "../../domain/whatsapp.ts";

/** The records a list item joins, read once per request or event. */
export interface TicketLookups {
  companyId: number;
  contacts: ReadonlyIdMap<Contact>;
  queues: ReadonlyMap<number, Queue>;
  users: ReadonlyMap<number, User>;
  whatsapps: ReadonlyMap<number, Whatsapp>;
  tags: ReadonlyMap<number, Tag>;
}

/**
 * The company's lookups when every collection they join is live: no turn of the event loop,
 * which the desk takes on every ticket change (once per inbound message). Else undefined.
 */
export function lookupsNow(system: ActorSystem, companyId: number): TicketLookups | undefined {
  const contacts = contactsNow(system, companyId);
  const queueMap = contacts && queues.in(system, companyId).recordsNow();
  const userMap = queueMap && users.in(system, PLATFORM).recordsNow();
  const connMap = userMap && whatsapps.in(system, companyId).recordsNow();
  const tagMap = connMap && tags.in(system, companyId).recordsNow();
  if (!tagMap) return undefined;
  return { companyId, contacts, queues: queueMap, users: userMap, whatsapps: connMap, tags: tagMap };
}

/** Reads the company's lookups (all in memory: no KV access once warm). */
export async function loadLookups(system: ActorSystem, companyId: number): Promise<TicketLookups> {
  const now = lookupsNow(system, companyId);
  if (now) return now;
  const [contactMap, queueMap, userMap, connMap, tagMap] = await Promise.all([
    contactsOf(system, companyId),
    queues.in(system, companyId).records(),
    users.in(system, PLATFORM).records(),
    whatsapps.in(system, companyId).records(),
    tags.in(system, companyId).records(),
  ]);
  return {
    companyId,
    contacts: contactMap,
    queues: queueMap,
    users: userMap,
    whatsapps: connMap,
    tags: tagMap,
  };
}

/** The name of a user of the company, or null. */
export function userRef(l: TicketLookups, id: number | null): { id: number; name: string } | null {
  if (id === null) return null;
  const u = l.users.get(id);
  return u && u.companyId === l.companyId ? refOf(u, () => ({ id: u.id, name: u.name })) : null;
}

/**
 * Joined parts cached per record: records are immutable snapshots (a change replaces the
 * object), so a part built from one record stays right for as long as that record lives.
 * Lists then pay for date formatting and object building once per change, not per request.
 */
const parts = new WeakMap<object, unknown>();

function refOf<T>(record: object, build: () => T): T {
  let part = parts.get(record) as T | undefined;
  if (part === undefined) parts.set(record, part = build());
  return part;
}

/**
 * The ticket's own fields as the API shows them (dates as ISO text). The record's `v` is
 * left out as `undefined`, which every reader writes out as JSON (sockets, webhooks, replies;
 * `listBaseOf`'s copy drops it): a rest pattern (`{ v, ...fields }`) copies through V8's
 * runtime, and took 1.1–1.5 µs of the 0.5 µs this spread takes, on every inbound message's
 * ticket event (issue #34).
 */
function baseFields(t: Ticket) {
  return {
    ...t,
    v: undefined,
    latestSeq: undefined,
    createdAt: isoDate(t.createdAt),
    updatedAt: isoDate(t.updatedAt),
    latestCreatedAt: isoDate(t.latestCreatedAt),
    closedAt: isoDate(t.closedAt),
    acceptedAt: isoDate(t.acceptedAt),
  };
}

/**
 * `baseFields` for lists, built once per record version through one JSON round trip: the
 * copy's strings are fresh flat strings, which `JSON.stringify` writes about twice as fast as
 * the strings read from KV and the concatenated dates (25 list items: 66 → 33 µs, a fifth of
 * a list request). The round trip itself costs ~8 µs, so only reads pay it: an event's item
 * is written once, and a ticket noting 8,000 messages/s would spend 6% of the inbound path
 * on copies no list may ever read (bench/ingest.ts).
 */
function listBaseOf(t: Ticket) {
  return refOf(t, () => JSON.parse(JSON.stringify(baseFields(t))) as ReturnType<typeof baseFields>);
}

function contactOf(contact: Contact | undefined) {
  return contact
    ? refOf(contact, () => ({
      id: contact.id,
      name: contact.name,
      number: contact.number,
      profilePicUrl: contact.profilePicUrl,
    }))
    : null;
}

/**
 * The list item of `t`; `extraInfo` adds the contact's extra fields (kanban cards). `event`
 * builds it for one event or reply rather than for lists (see `listBaseOf`).
 */
export function ticketItem(
  t: Ticket,
  l: TicketLookups,
  options: { extraInfo?: boolean; event?: boolean } = {},
) {
  const contact = l.contacts.get(t.contactId);
  const queue = t.queueId === null ? undefined : l.queues.get(t.queueId);
  const conn = t.whatsappId === null ? undefined : l.whatsapps.get(t.whatsappId);
  const contactPart = contactOf(contact);
  return {
    ...(options.event ? baseFields(t) : listBaseOf(t)),
    contact: contactPart && options.extraInfo
      ? { ...contactPart, extraInfo: contact!.extraInfo }
      : contactPart,
    queue: queue ? refOf(queue, () => ({ id: queue.id, name: queue.name, color: queue.color })) : null,
    user: userRef(l, t.userId),
    // `provider` tells the list's channel icon WhatsApp (Baileys, the simulator), the Cloud API and Evolution apart.
    whatsapp: conn ? refOf(conn, () => ({ id: conn.id, name: conn.name, channel: conn.channel, provider: conn.provider })) : null,
    tags: t.tagIds.length === 0 ? [] : t.tagIds.flatMap((id) => {
      const tag = l.tags.get(id);
      return tag ? [refOf(tag, () => ({ id: tag.id, name: tag.name, color: tag.color }))] : [];
    }),
  };
}

/** The list item type. */
export type TicketItem = ReturnType<typeof ticketItem>;

/** A list item's JSON and the records it was joined from. */
interface ItemJson {
  contact: Contact | undefined;
  queue: Queue | undefined;
  whatsapp: Whatsapp | undefined;
  user: User | undefined;
  tags: readonly (Tag | undefined)[];
  json: string;
}

/**
 * `JSON.stringify(ticketItem(t, l))`, kept per ticket record (issue #23 §2): a list request
 * then joins strings instead of building and writing twenty objects, which was a third of
 * its time and most of its garbage. A hit is checked against the identity of every record
 * joined (records are immutable snapshots), so a renamed contact, queue, user, connection or
 * tag builds the item again. The list's base fields are not kept as objects for it (see
 * `listBaseOf`): the string is the only copy a listed ticket keeps, and it dies with the
 * ticket's version.
 */
const itemJsons = new WeakMap<Ticket, ItemJson>();

function sameTags(kept: readonly (Tag | undefined)[], t: Ticket, l: TicketLookups): boolean {
  if (kept.length !== t.tagIds.length) return false;
  for (let i = 0; i < kept.length; i++) if (kept[i] !== l.tags.get(t.tagIds[i])) return false;
  return true;
}

/** The list item of `t` as JSON text (what `ticketItem` answers, written once per version). */
export function ticketItemJson(t: Ticket, l: TicketLookups): string {
  const contact = l.contacts.get(t.contactId);
  const queue = t.queueId === null ? undefined : l.queues.get(t.queueId);
  const whatsapp = t.whatsappId === null ? undefined : l.whatsapps.get(t.whatsappId);
  const user = t.userId === null ? undefined : l.users.get(t.userId);
  const kept = itemJsons.get(t);
  if (
    kept && kept.contact === contact && kept.queue === queue && kept.whatsapp === whatsapp &&
    kept.user === user && sameTags(kept.tags, t, l)
  ) return kept.json;
  const json = JSON.stringify(ticketItem(t, l, { event: true }));
  itemJsons.set(t, { contact, queue, whatsapp, user, tags: t.tagIds.map((id) => l.tags.get(id)), json });
  return json;
}
