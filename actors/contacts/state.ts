/**
 * The in-memory state of a company's contacts and its indexes: by number, by LID, and ids
 * kept sorted by folded name (so a page of the contact list needs no sort per request; a
 * write moves one id with a binary search and a splice).
 */
import { type Contact, contactSearchText, foldText } from "../../domain/contact.ts";

export interface ContactsState {
  v: 1;
  companyId: number;
  counter: number;
  contacts: Map<number, Contact>;
  byNumber: Map<string, number>;
  byLid: Map<string, number>;
  /** Ids ordered by (folded name, id). */
  byName: number[];
  /** id → folded name, the sort key of `byName`. */
  sortKeys: Map<number, string>;
  /** id → text searched by GET /contacts. */
  searchTexts: Map<number, string>;
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
    sortKeys: new Map(),
    searchTexts: new Map(),
  };
}

/** Builds the state from stored records at activation (one sort, then kept incrementally). */
export function buildState(companyId: number, records: Contact[], counter: number): ContactsState {
  const state = emptyState(companyId);
  for (const contact of records) {
    state.contacts.set(contact.id, contact);
    indexKeys(state, contact);
    state.counter = Math.max(state.counter, contact.id);
  }
  state.counter = Math.max(state.counter, counter);
  state.byName = [...state.contacts.keys()];
  state.byName.sort((a, b) => compareIds(state, a, b));
  return state;
}

function indexKeys(state: ContactsState, contact: Contact): void {
  if (contact.number) state.byNumber.set(contact.number, contact.id);
  if (contact.lid) state.byLid.set(contact.lid, contact.id);
  state.sortKeys.set(contact.id, foldText(contact.name));
  state.searchTexts.set(contact.id, contactSearchText(contact));
}

function compareIds(state: ContactsState, a: number, b: number): number {
  const ka = state.sortKeys.get(a)!;
  const kb = state.sortKeys.get(b)!;
  return ka < kb ? -1 : ka > kb ? 1 : a - b;
}

/** Position of `id` in `byName` (where it is, or where it would go). */
function position(state: ContactsState, id: number): number {
  let lo = 0;
  let hi = state.byName.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareIds(state, state.byName[mid], id) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Adds or replaces a contact in the state and its indexes. */
export function putContact(state: ContactsState, contact: Contact): void {
  if (state.contacts.has(contact.id)) dropContact(state, contact.id);
  state.contacts.set(contact.id, contact);
  indexKeys(state, contact);
  state.byName.splice(position(state, contact.id), 0, contact.id);
}

/** Removes a contact from the state and its indexes. */
export function dropContact(state: ContactsState, id: number): void {
  const old = state.contacts.get(id);
  if (!old) return;
  const at = position(state, id);
  if (state.byName[at] === id) state.byName.splice(at, 1);
  if (old.number && state.byNumber.get(old.number) === id) state.byNumber.delete(old.number);
  if (old.lid && state.byLid.get(old.lid) === id) state.byLid.delete(old.lid);
  state.contacts.delete(id);
  state.sortKeys.delete(id);
  state.searchTexts.delete(id);
}
