/**
 * The in-memory state of a company's contacts and its indexes: by number, by LID, and ids
 * kept sorted by folded name (so a page of the contact list needs no sort per request; a
 * write moves one id with a binary search and a splice). The name order is three parallel
 * arrays (ids, sort keys, search texts) so a search is one tight loop over plain arrays.
 */
import { type Contact, contactSearchText, foldText, residentContact } from "../../domain/contact.ts";

export interface ContactsState {
  v: 1;
  companyId: number;
  counter: number;
  contacts: Map<number, Contact>;
  byNumber: Map<string, number>;
  byLid: Map<string, number>;
  /** Ids ordered by (folded name, id). */
  byName: number[];
  /** Folded names, parallel to `byName` (its sort key). */
  nameKeys: string[];
  /** Texts searched by GET /contacts (contactSearchText), parallel to `byName`. */
  searchTexts: string[];
}

/** An empty state for company `companyId`. */
export function emptyState(companyId: number): ContactsState {
  return {
    v: 1,
    companyId,
    counter: 0,
    contacts: new Map(),
    byNumber: new Map(),
    byLid: new Map(),
    byName: [],
    nameKeys: [],
    searchTexts: [],
  };
}

/** Builds the state from stored records at activation (one sort, then kept incrementally). */
export function buildState(companyId: number, records: Contact[], counter: number): ContactsState {
  const state = emptyState(companyId);
  const rows = records.map((record) => ({ contact: residentContact(record), key: foldText(record.name) }));
  rows.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.contact.id - b.contact.id));
  for (const { contact, key } of rows) {
    state.contacts.set(contact.id, contact);
    if (contact.number) state.byNumber.set(contact.number, contact.id);
    if (contact.lid) state.byLid.set(contact.lid, contact.id);
    state.byName.push(contact.id);
    state.nameKeys.push(key);
    state.searchTexts.push(contactSearchText(contact));
    if (contact.id > state.counter) state.counter = contact.id;
  }
  state.counter = Math.max(state.counter, counter);
  return state;
}

/** Position of (key, id) in the name order: where it is, or where it would go. */
function position(state: ContactsState, key: string, id: number): number {
  let lo = 0;
  let hi = state.byName.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const k = state.nameKeys[mid];
    if (k < key || (k === key && state.byName[mid] < id)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Adds or replaces a contact in the state and its indexes. */
export function putContact(state: ContactsState, contact: Contact): void {
  if (state.contacts.has(contact.id)) dropContact(state, contact.id);
  state.contacts.set(contact.id, contact);
  if (contact.number) state.byNumber.set(contact.number, contact.id);
  if (contact.lid) state.byLid.set(contact.lid, contact.id);
  const key = foldText(contact.name);
  const at = position(state, key, contact.id);
  state.byName.splice(at, 0, contact.id);
  state.nameKeys.splice(at, 0, key);
  state.searchTexts.splice(at, 0, contactSearchText(contact));
}

/** Removes a contact from the state and its indexes. */
export function dropContact(state: ContactsState, id: number): void {
  const old = state.contacts.get(id);
  if (!old) return;
  const at = position(state, foldText(old.name), id);
  if (state.byName[at] === id) {
    state.byName.splice(at, 1);
    state.nameKeys.splice(at, 1);
    state.searchTexts.splice(at, 1);
  }
  if (old.number && state.byNumber.get(old.number) === id) state.byNumber.delete(old.number);
  if (old.lid && state.byLid.get(old.lid) === id) state.byLid.delete(old.lid);
  state.contacts.delete(id);
}

/**
 * Adds many new contacts at once (import): sorts the batch and merges it into the name order
 * in one pass, instead of one splice per contact (a 50,000-row import would otherwise move
 * the arrays 50,000 times).
 */
export function putMany(state: ContactsState, batch: readonly Contact[]): void {
  if (batch.length < 32) {
    for (const contact of batch) putContact(state, contact);
    return;
  }
  for (const contact of batch) if (state.contacts.has(contact.id)) dropContact(state, contact.id);
  const rows = batch.map((contact) => ({ contact, key: foldText(contact.name) }));
  rows.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.contact.id - b.contact.id));
  const ids: number[] = [];
  const keys: string[] = [];
  const texts: string[] = [];
  let i = 0;
  for (const { contact, key } of rows) {
    state.contacts.set(contact.id, contact);
    if (contact.number) state.byNumber.set(contact.number, contact.id);
    if (contact.lid) state.byLid.set(contact.lid, contact.id);
    while (
      i < state.byName.length &&
      (state.nameKeys[i] < key || (state.nameKeys[i] === key && state.byName[i] < contact.id))
    ) {
      ids.push(state.byName[i]);
      keys.push(state.nameKeys[i]);
      texts.push(state.searchTexts[i]);
      i++;
    }
    ids.push(contact.id);
    keys.push(key);
    texts.push(contactSearchText(contact));
  }
  for (; i < state.byName.length; i++) {
    ids.push(state.byName[i]);
    keys.push(state.nameKeys[i]);
    texts.push(state.searchTexts[i]);
  }
  state.byName = ids;
  state.nameKeys = keys;
  state.searchTexts = texts;
}
