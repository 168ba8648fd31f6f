/**
 * The in-memory state of a company's contacts and its indexes: by number, by LID, and ids
 * kept sorted by folded name (so a page of the contact list needs no sort per request; a
 * write moves one id with a binary search and a splice). The name order is two parallel
 * arrays (ids, search texts) so a search is one tight loop over plain arrays. A search text
 * starts with the folded name, the sort key, up to its first \u0001 (contactSearchText):
 * compared in place, it needs no string of its own per contact (500,000 strings fewer at
 * #23 §3's scale for every full collection to mark).
 */
import { type Contact, contactSearchText, residentContact } from "../../domain/contact.ts";
import { GramFilter } from "./gram_filter.ts";

export interface ContactsState {
  v: 1;
  companyId: number;
  counter: number;
  contacts: Map<number, Contact>;
  byNumber: Map<string, number>;
  byLid: Map<string, number>;
  /** Ids ordered by (folded name, id). */
  byName: number[];
  /** Texts searched by GET /contacts (contactSearchText), parallel to `byName`; each starts with its sort key. */
  searchTexts: string[];
  /** Which blocks of ids may match a term (gram_filter.ts), for the ticket search. */
  grams: GramFilter;
  /** The same search texts by contact id (undefined: no such contact), to read a block's. */
  textById: (string | undefined)[];
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
    searchTexts: [],
    grams: new GramFilter(),
    textById: [],
  };
}

/** Sort-key characters per prefix number (`keyPrefixes`), 7 bits each: 49 bits, exact. */
const PREFIX_CHARS = 7;
const PREFIXES = 3;

/**
 * The first 21 characters of a search text's sort key (up to its first \u0001) as three
 * numbers that order like the key, into `out[at…at+3)`: a digit of 7 bits per character,
 * 0 past the key's end; a character of code 126 or more is the digit 127 and ends the
 * digits, so keys whose numbers tie are compared in full (`compareKeys`).
 */
function keyPrefixes(text: string, out: Float64Array, at: number): void {
  let c = 0;
  let i = 0;
  let ended = false;
  for (let p = 0; p < PREFIXES; p++) {
    let prefix = 0;
    for (let d = 0; d < PREFIX_CHARS; d++) {
      let digit = 0;
      if (!ended && i < text.length && (c = text.charCodeAt(i++)) !== 1) {
        digit = c < 126 ? c + 1 : 127;
        ended = c >= 126;
      } else ended = true;
      prefix = prefix * 128 + digit;
    }
    out[at + p] = prefix;
  }
}

/** Two search texts by their sort keys (up to the first \u0001), as `<` orders the keys. */
function compareKeys(a: string, b: string): number {
  const endA = a.indexOf("\u0001");
  const endB = b.indexOf("\u0001");
  const n = Math.min(endA, endB);
  for (let i = 0; i < n; i++) {
    const d = a.charCodeAt(i) - b.charCodeAt(i);
    if (d !== 0) return d;
  }
  return endA - endB;
}

/**
 * Builds the state from stored records at activation (one sort, then kept incrementally).
 *
 * Why this shape (issue #23 §3, 500,000 contacts: 3.6–5 s before): the records are walked
 * once in the order they sit in memory, and what needs no name order (texts by id, the
 * trigram filter, the number and LID maps) is built in that order; the sort compares numbers
 * (keyPrefixes) and reads texts only on a tie; the walk in name order reads only arrays,
 * never a record (a cache miss per record).
 */
export function buildState(
  companyId: number,
  records: Contact[],
  counter: number,
  /** The records are in residentContact's shape already (a snapshot's): not copied again. */
  resident = false,
): ContactsState {
  const state = emptyState(companyId);
  const n = records.length;
  const contacts: Contact[] = [];
  const texts: string[] = [];
  /** A plain array, so `byName` and the Map get the ids as small integers (not doubles). */
  const ids: number[] = [];
  const prefixes = new Float64Array(n * PREFIXES);
  let maxId = counter;
  for (let i = 0; i < n; i++) {
    const contact = resident ? records[i] : residentContact(records[i]);
    const text = contactSearchText(contact);
    contacts.push(contact);
    texts.push(text);
    ids.push(contact.id);
    keyPrefixes(text, prefixes, i * PREFIXES);
    if (contact.id > maxId) maxId = contact.id;
  }
  // Sized up front: filled in record order, a growing array would go sparse (a dictionary).
  state.textById = new Array(maxId + 1);
  for (let i = 0; i < n; i++) state.textById[ids[i]] = texts[i];
  state.grams.addAll(ids, texts);
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((a, b) =>
    prefixes[a * 3] - prefixes[b * 3] || prefixes[a * 3 + 1] - prefixes[b * 3 + 1] ||
    prefixes[a * 3 + 2] - prefixes[b * 3 + 2] || compareKeys(texts[a], texts[b]) || ids[a] - ids[b]
  );
  const rank = new Int32Array(n);
  for (let k = 0; k < n; k++) {
    const i = order[k];
    rank[i] = k;
    state.contacts.set(ids[i], contacts[i]);
    state.byName.push(ids[i]);
    state.searchTexts.push(texts[i]);
  }
  fillLast(state.byNumber, contacts, ids, rank, (c) => c.number);
  fillLast(state.byLid, contacts, ids, rank, (c) => c.lid);
  state.counter = maxId;
  return state;
}

/**
 * `map.set(field(contact), id)` of every contact with the field set, in record order, where
 * a value several contacts share ends with the one last in the name order (what setting
 * them in name order gave): setting in record order reads the strings where they sit.
 */
function fillLast(
  map: Map<string, number>,
  contacts: readonly Contact[],
  ids: readonly number[],
  rank: Int32Array,
  field: (c: Contact) => string | null | undefined,
): void {
  let shared: Set<string> | undefined;
  for (let i = 0; i < contacts.length; i++) {
    const value = field(contacts[i]);
    if (!value) continue;
    const size = map.size;
    map.set(value, ids[i]);
    if (map.size === size) (shared ??= new Set()).add(value);
  }
  if (!shared) return;
  const last = new Map<string, number>();
  for (let i = 0; i < contacts.length; i++) {
    const value = field(contacts[i]);
    if (!value || !shared.has(value)) continue;
    const best = last.get(value);
    if (best === undefined || rank[best] < rank[i]) last.set(value, i);
  }
  for (const [value, i] of last) map.set(value, ids[i]);
}

/** The sort key of a contact: what its search text starts with (contactSearchText). */
function nameKey(contact: Contact): string {
  const text = contactSearchText(contact);
  return text.slice(0, text.indexOf("\u0001"));
}

/** `text`'s sort key (up to its first \u0001) against `key`: <0, 0 or >0, as `<` orders strings. */
function compareKey(text: string, key: string): number {
  const end = text.indexOf("\u0001");
  const n = Math.min(end, key.length);
  for (let i = 0; i < n; i++) {
    const d = text.charCodeAt(i) - key.charCodeAt(i);
    if (d !== 0) return d;
  }
  return end - key.length;
}

/** Whether the entry at `i` comes before (key, id) in the name order. */
function before(state: ContactsState, i: number, key: string, id: number): boolean {
  const c = compareKey(state.searchTexts[i], key);
  return c < 0 || (c === 0 && state.byName[i] < id);
}

/** Position of (key, id) in the name order: where it is, or where it would go. */
function position(state: ContactsState, key: string, id: number): number {
  let lo = 0;
  let hi = state.byName.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(state, mid, key, id)) lo = mid + 1;
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
  const at = position(state, nameKey(contact), contact.id);
  const text = contactSearchText(contact);
  state.byName.splice(at, 0, contact.id);
  state.searchTexts.splice(at, 0, text);
  state.grams.add(contact.id, text);
  state.textById[contact.id] = text;
}

/** Removes a contact from the state and its indexes. */
export function dropContact(state: ContactsState, id: number): void {
  const old = state.contacts.get(id);
  if (!old) return;
  const at = position(state, nameKey(old), id);
  if (state.byName[at] === id) {
    state.byName.splice(at, 1);
    state.searchTexts.splice(at, 1);
  }
  if (old.number && state.byNumber.get(old.number) === id) state.byNumber.delete(old.number);
  if (old.lid && state.byLid.get(old.lid) === id) state.byLid.delete(old.lid);
  state.contacts.delete(id);
  state.textById[id] = undefined;
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
  const rows = batch.map((contact) => ({ contact, key: nameKey(contact) }));
  rows.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.contact.id - b.contact.id));
  const ids: number[] = [];
  const texts: string[] = [];
  let i = 0;
  for (const { contact, key } of rows) {
    state.contacts.set(contact.id, contact);
    if (contact.number) state.byNumber.set(contact.number, contact.id);
    if (contact.lid) state.byLid.set(contact.lid, contact.id);
    while (i < state.byName.length && before(state, i, key, contact.id)) {
      ids.push(state.byName[i]);
      texts.push(state.searchTexts[i]);
      i++;
    }
    const text = contactSearchText(contact);
    ids.push(contact.id);
    texts.push(text);
    state.grams.add(contact.id, text);
    state.textById[contact.id] = text;
  }
  for (; i < state.byName.length; i++) {
    ids.push(state.byName[i]);
    texts.push(state.searchTexts[i]);
  }
  state.byName = ids;
  state.searchTexts = texts;
}
