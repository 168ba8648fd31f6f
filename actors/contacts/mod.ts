/**
 * The contacts of a company: what other areas call. Reads use the actor's in-memory state
 * (no mailbox); writes go through the per-company contacts actor (actor.ts), serialized.
 */
import type { ActorSystem } from "../_runtime/system.ts";
import type { ReadonlyIdMap } from "../_runtime/dense_id_map.ts";
import {
  type Contact,
  type ContactFields,
  contactMatcher,
  contactNeedles,
  type NewContact,
  normalizeNumber,
} from "../../domain/contact.ts";
import { contactMissing, contactsActor, resolveSighting } from "./actor.ts";
import type { ContactsState } from "./state.ts";
import { BLOCK } from "./gram_filter.ts";
import { startNaming, withNames } from "./naming.ts";
import { within } from "../_runtime/slices.ts";

export { contactMissing, contactsActor } from "./actor.ts";

/** Rows per write message: keeps one handler's writes under KV's 1000 mutations per atomic. */
const CHUNK = 400;

function ref(system: ActorSystem, companyId: number) {
  return system.ref(contactsActor, companyId);
}

function state(system: ActorSystem, companyId: number): Promise<ContactsState> {
  return ref(system, companyId).peek<ContactsState>();
}

/** The contact, or undefined when it does not exist in the company. */
export async function getContact(
  system: ActorSystem,
  companyId: number,
  id: number,
): Promise<Contact | undefined> {
  return (await state(system, companyId)).contacts.get(id);
}

/** `contactsOf` if the contacts actor is live and loaded, else undefined (no turn of the loop). */
export function contactsNow(system: ActorSystem, companyId: number): ReadonlyIdMap<Contact> | undefined {
  return (system.peekNow(contactsActor, String(companyId)) as ContactsState | undefined)?.contacts;
}

/** The company's contacts by id: the live in-memory map, read only (for list joins). */
export async function contactsOf(
  system: ActorSystem,
  companyId: number,
): Promise<ReadonlyIdMap<Contact>> {
  return (await state(system, companyId)).contacts;
}

/** The contact with this phone number (any formatting; compared as digits). */
export async function findContactByNumber(
  system: ActorSystem,
  companyId: number,
  number: string,
): Promise<Contact | undefined> {
  const s = await state(system, companyId);
  const id = s.byNumber.get(normalizeNumber(number));
  return id === undefined ? undefined : s.contacts.get(id);
}

/**
 * Finds the contact of an inbound sighting by number (then LID) or creates it; serialized,
 * so concurrent calls for one number create one contact. A LID is never stored as the
 * number: a sender known only by LID gets a contact with number "" (merge it later with
 * `mergeContacts`). A found contact learns a new picture, a real name and its LID.
 */
export async function findOrCreateContact(
  system: ActorSystem,
  companyId: number,
  input: NewContact,
): Promise<{ contact: Contact; created: boolean }> {
  const { found, next } = resolveSighting(await state(system, companyId), input);
  if (found && !next) return { contact: found, created: false };
  return await ref(system, companyId).ask("findOrCreate", input);
}

/**
 * Merges contact `fromId` into `intoId` (the LID-only contact into the one with the real
 * number) and deletes `fromId`. Publishes `{ action: "delete", contactId: fromId, mergedInto }`
 * on company-{id}-contact; areas holding tickets or messages of `fromId` move them on it.
 */
export async function mergeContacts(
  system: ActorSystem,
  companyId: number,
  fromId: number,
  intoId: number,
): Promise<Contact> {
  return await ref(system, companyId).ask("merge", { fromId, intoId });
}

/** Puts the contact in `userId`'s wallet, or takes it out of every wallet with null. */
export async function setWallet(
  system: ActorSystem,
  companyId: number,
  contactId: number,
  userId: number | null,
): Promise<Contact> {
  return await ref(system, companyId).ask("update", {
    id: contactId,
    patch: { walleteUserId: userId },
  });
}

/** Creates a contact; ERR_DUPLICATED_CONTACT (with `existingContact`) for a known number. */
export async function createContact(
  system: ActorSystem,
  companyId: number,
  fields: ContactFields,
): Promise<Contact> {
  const number = fields.number === undefined ? undefined : normalizeNumber(fields.number);
  return await ref(system, companyId).ask("create", { ...fields, number });
}

/** Changes fields of a contact (404 ERR_NO_CONTACT_FOUND when it does not exist). */
export async function updateContact(
  system: ActorSystem,
  companyId: number,
  id: number,
  patch: ContactFields,
): Promise<Contact> {
  const number = patch.number === undefined ? undefined : normalizeNumber(patch.number);
  const clean = number === undefined ? patch : { ...patch, number };
  return await ref(system, companyId).ask("update", { id, patch: clean });
}

/** Deletes the contacts among `ids` that exist; replies with the deleted records. */
export async function deleteContacts(
  system: ActorSystem,
  companyId: number,
  ids: number[],
): Promise<Contact[]> {
  const removed: Contact[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) {
    removed.push(...await ref(system, companyId).ask("remove", ids.slice(i, i + CHUNK)));
  }
  return removed;
}

/** Deletes one contact; 404 when it does not exist. */
export async function deleteContact(
  system: ActorSystem,
  companyId: number,
  id: number,
): Promise<Contact> {
  const [removed] = await deleteContacts(system, companyId, [id]);
  if (!removed) throw contactMissing(id);
  return removed;
}

/**
 * Creates many contacts (import), skipping numbers already known; `onChunk` hears progress
 * after every chunk is durable.
 */
export async function createManyContacts(
  system: ActorSystem,
  companyId: number,
  rows: ContactFields[],
  onChunk?: (done: number, total: number) => void,
): Promise<{ created: Contact[]; duplicated: number }> {
  const created: Contact[] = [];
  let duplicated = 0;
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    const reply = await ref(system, companyId).ask("createMany", chunk);
    created.push(...reply.created);
    duplicated += reply.duplicated;
    onChunk?.(Math.min(rows.length, i + CHUNK), rows.length);
  }
  return { created, duplicated };
}

/** A page of contacts in name order, filtered by a search term and a predicate. */
export interface ContactPageQuery {
  searchParam?: string;
  /** Zero-based offset of the first contact. */
  offset: number;
  limit: number;
  where?: (contact: Contact) => boolean;
}

/**
 * One page of the contact list in name order plus the total count of matches. Walks the
 * name index (kept sorted by the actor), so no sort runs per request.
 */
export async function pageContacts(
  system: ActorSystem,
  companyId: number,
  query: ContactPageQuery,
): Promise<{ contacts: Contact[]; count: number; hasMore: boolean }> {
  const s = await withNames(await state(system, companyId));
  const term = query.searchParam?.trim() ?? "";
  if (!term && !query.where) {
    const ids = s.byName.slice(query.offset, query.offset + query.limit);
    const contacts = ids.map((id) => s.contacts.get(id)!);
    const count = s.byName.length;
    return { contacts, count, hasMore: query.offset + contacts.length < count };
  }
  const matches = contactMatcher(term);
  const { byName, searchTexts } = s;
  const contacts: Contact[] = [];
  let count = 0;
  for (let i = 0; i < byName.length; i++) {
    if (!matches(searchTexts[i])) continue;
    const contact = s.contacts.get(byName[i])!;
    if (query.where && !query.where(contact)) continue;
    if (count >= query.offset && contacts.length < query.limit) contacts.push(contact);
    count++;
  }
  return { contacts, count, hasMore: query.offset + contacts.length < count };
}

/** Above this share of the blocks, one pass over every text beats reading the blocks. */
const SCAN_ALL_SHARE = 0.5;

/** How long after a name index build began (naming.ts) a ticket search still waits for it. */
export const CONTACTS_PARTIAL_AFTER_MS = 20;

/**
 * Ids of the company's contacts whose name, number or e-mail contains `term`, as
 * `pageContacts` matches them, in no particular order (the ticket search adds their
 * tickets). Reads only the id blocks the trigram filter names (gram_filter.ts). While the
 * name index is built after a start (naming.ts), waits for it until `waitMs` after the
 * build began, then answers with no ids, `partial`.
 */
export async function contactIdsMatching(
  system: ActorSystem,
  companyId: number,
  term: string,
  waitMs = CONTACTS_PARTIAL_AFTER_MS,
): Promise<{ ids: number[]; partial: boolean }> {
  const s = await state(system, companyId);
  if (s.naming) {
    startNaming(s);
    await within(s.naming.done, s.naming.startedAt + waitMs - performance.now());
  }
  if (s.naming) return { ids: [], partial: true };
  return { ids: idsMatching(s, term), partial: false };
}

/** `contactIdsMatching` of a state whose name index is in place. */
function idsMatching(s: ContactsState, term: string): number[] {
  const matches = contactMatcher(term);
  const needles = contactNeedles(term);
  const found: number[] = [];
  let blocks: Set<number> | undefined = new Set();
  for (const needle of needles) {
    const some = s.grams.candidates(needle);
    if (!some) blocks = undefined;
    else for (const block of some) blocks?.add(block);
  }
  const allBlocks = Math.ceil((s.counter + 1) / BLOCK);
  if (needles.length === 0 || !blocks || blocks.size > allBlocks * SCAN_ALL_SHARE) {
    const { byName, searchTexts } = s;
    for (let i = 0; i < byName.length; i++) if (matches(searchTexts[i])) found.push(byName[i]);
    return found;
  }
  const { textById } = s;
  for (const block of blocks) {
    const end = Math.min(textById.length, (block + 1) * BLOCK);
    for (let id = block * BLOCK; id < end; id++) {
      const text = textById[id];
      if (text !== undefined && matches(text)) found.push(id);
    }
  }
  return found;
}

/** Every contact of the company in name order (for pickers and exports). */
export async function contactsByName(system: ActorSystem, companyId: number): Promise<Contact[]> {
  const s = await withNames(await state(system, companyId));
  return s.byName.map((id) => s.contacts.get(id)!);
}

/** Activates the company's contacts (loads and indexes them); for start-up warm-up. */
export async function warmContacts(system: ActorSystem, companyId: number): Promise<void> {
  await state(system, companyId);
  // A first snapshot, or a new one when the start replayed many changes (record_snapshot.ts).
  await ref(system, companyId).ask("snapshotIfDue", null);
}

/**
 * Begins building a large company's contact name index in the background (naming.ts), for
 * the warm-up once every read model is loaded.
 */
export async function nameContacts(system: ActorSystem, companyId: number): Promise<void> {
  startNaming(await state(system, companyId));
}
