/**
 * The in-memory state of a company's contacts and its indexes: by number, by LID, and ids
 * kept sorted by folded name (so a page of the contact list needs no sort per request; a
 * write moves one id with a binary search and a splice). The name order is two parallel
 * arrays (ids, search texts) so a search is one tight loop over plain arrays. A search text
 * starts with the folded name, the sort key, up to its first \u0001 (contactSearchText):
 * compared in place, it needs no string of its own per contact (500,000 strings fewer at
 * #23 §3's scale for every full collection to mark).
 *
 * Resident per contact (issue #23 §3, 500,000 contacts): the record, its slot in the array
 * of records by id (_runtime/dense_id_map.ts), its number's and LID's slots in open-addressing
 * tables (_runtime/string_id_map.ts), and the name index: an id and a search text in name
 * order, the text again by id (the same string), and its bits in the trigram filter. A large
 * company's name index is built after the start's warm-up (naming.ts): `coreState` is what
 * the activation builds, `nameSteps` the rest.
 */
import { type Contact, contactSearchText, residentContact } from "../../domain/contact.ts";
import { GramFilter } from "./gram_filter.ts";
import { runToEnd, sortedPositions } from "../_runtime/merge_sort.ts";
import { DenseIdMap } from "../_runtime/dense_id_map.ts";
import { StringIdMap } from "../_runtime/string_id_map.ts";

export interface ContactsState {
  v: 1;
  companyId: number;
  counter: number;
  /** Records by id (an array: _runtime/dense_id_map.ts). */
  contacts: DenseIdMap<Contact>;
  /** Ids by number and by LID (open addressing: _runtime/string_id_map.ts). */
  byNumber: StringIdMap;
  byLid: StringIdMap;
  /** Ids ordered by (folded name, id). */
  byName: number[];
  /** Texts searched by GET /contacts (contactSearchText), parallel to `byName`; each starts with its sort key. */
  searchTexts: string[];
  /** Which blocks of ids may match a term (gram_filter.ts), for the ticket search. */
  grams: GramFilter;
  /** The same search texts by contact id (undefined: no such contact), to read a block's. */
  textById: (string | undefined)[];
  /**
   * Set while the name index (the four fields above) is built in the background (naming.ts):
   * until then they are empty, and the contacts written meanwhile are noted here.
   */
  naming?: NameBuild;
}

/** A name index to build (naming.ts): when it began, when it is in place, who was written meanwhile. */
export interface NameBuild {
  /** Infinity until the build begins. */
  startedAt: number;
  done: Promise<void>;
  dirty: Set<number>;
  /** Begins the build; unset once it has begun. */
  start?: () => void;
}

/** An empty state for company `companyId`. */
export function emptyState(companyId: number): ContactsState {
  return {
    v: 1,
    companyId,
    counter: 0,
    contacts: new DenseIdMap(),
    byNumber: new StringIdMap(),
    byLid: new StringIdMap(),
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
 * Builds the whole state from stored records at once: `coreState`, then the name index
 * (`nameSteps`) run to its end. A large company's activation builds the name index in the
 * background instead (naming.ts).
 */
export function buildState(
  companyId: number,
  records: Contact[],
  counter: number,
  /** The records are in residentContact's shape already (a snapshot's): not copied again. */
  resident = false,
): ContactsState {
  const { state, contacts } = coreState(companyId, records, counter, resident);
  installNames(state, runToEnd(nameSteps(contacts)));
  return state;
}

/**
 * The state without its name index (empty): the records by id and the number and LID maps,
 * what an inbound message and a ticket's contact need; and the records as kept, for
 * `nameSteps`. Walks the records once in the order they sit in memory.
 */
export function coreState(
  companyId: number,
  records: Contact[],
  counter: number,
  resident = false,
): { state: ContactsState; contacts: Contact[] } {
  const state = emptyState(companyId);
  const contacts: Contact[] = [];
  let maxId = counter;
  for (let i = 0; i < records.length; i++) {
    const contact = resident ? records[i] : residentContact(records[i]);
    contacts.push(contact);
    state.contacts.set(contact.id, contact);
    if (contact.id > maxId) maxId = contact.id;
  }
  fillLast(state.byNumber, contacts, (c) => c.number);
  fillLast(state.byLid, contacts, (c) => c.lid);
  state.counter = maxId;
  return { state, contacts };
}

/** The name index of some contacts: what `nameSteps` builds and `installNames` puts in place. */
export interface NameParts {
  byName: number[];
  searchTexts: string[];
  grams: GramFilter;
  textById: (string | undefined)[];
}

/**
 * Builds the name index of `contacts`, yielding between slices of about a millisecond (a
 * caller in the background pauses there; `buildState` runs it through).
 *
 * Why this shape (issue #23 §3, 500,000 contacts: 3.6–5 s before): the records are walked
 * once in the order they sit in memory, and what needs no name order (texts by id, the
 * trigram filter) is built in that order; the sort compares numbers (keyPrefixes) and reads
 * texts only on a tie; the walk in name order reads only arrays, never a record.
 */
export function* nameSteps(contacts: readonly Contact[]): Generator<void, NameParts> {
  const n = contacts.length;
  const texts: string[] = [];
  /** A plain array, so `byName` gets the ids as small integers (not doubles). */
  const ids: number[] = [];
  const prefixes = new Float64Array(n * PREFIXES);
  let maxId = 0;
  for (let i = 0; i < n; i++) {
    const contact = contacts[i];
    const text = contactSearchText(contact);
    texts.push(text);
    ids.push(contact.id);
    keyPrefixes(text, prefixes, i * PREFIXES);
    if (contact.id > maxId) maxId = contact.id;
    if ((i & 511) === 511) yield;
  }
  // Sized up front: filled in record order, a growing array would go sparse (a dictionary).
  const textById: (string | undefined)[] = new Array(maxId + 1);
  for (let i = 0; i < n; i++) textById[ids[i]] = texts[i];
  yield;
  const grams = new GramFilter();
  grams.reserve(maxId);
  for (let at = 0; at < n; at += GRAM_SLICE) {
    grams.addAll(ids.slice(at, at + GRAM_SLICE), texts.slice(at, at + GRAM_SLICE));
    yield;
  }
  const order = yield* sortedPositions(n, (a, b) =>
    prefixes[a * 3] - prefixes[b * 3] || prefixes[a * 3 + 1] - prefixes[b * 3 + 1] ||
    prefixes[a * 3 + 2] - prefixes[b * 3 + 2] || compareKeys(texts[a], texts[b]) || ids[a] - ids[b]);
  const byName: number[] = [];
  const searchTexts: string[] = [];
  for (let k = 0; k < n; k++) {
    const i = order[k];
    byName.push(ids[i]);
    searchTexts.push(texts[i]);
    if ((k & 8191) === 8191) yield;
  }
  return { byName, searchTexts, grams, textById };
}

/** Contacts per trigram-filter slice of `nameSteps`. */
const GRAM_SLICE = 2048;

/**
 * Puts a built name index in place, then brings it up to date with the contacts written
 * while it was built (`naming.dirty`): each one's built entry out, its current record in.
 */
export function installNames(state: ContactsState, parts: NameParts): void {
  const dirty = state.naming?.dirty;
  state.naming = undefined;
  state.byName = parts.byName;
  state.searchTexts = parts.searchTexts;
  state.grams = parts.grams;
  state.textById = parts.textById;
  for (const id of dirty ?? []) {
    const built = state.textById[id];
    if (built !== undefined) removeName(state, id, built.slice(0, built.indexOf("\u0001")));
    const now = state.contacts.get(id);
    if (now) insertName(state, now);
  }
}

/**
 * `map.set(field(contact), id)` of every contact with the field set, in record order, where
 * a value several contacts share ends with the one last in the name order (what setting
 * them in name order gave): the few shared values are settled by comparing those names.
 */
function fillLast(
  map: StringIdMap,
  contacts: readonly Contact[],
  field: (c: Contact) => string | null | undefined,
): void {
  let shared: Set<string> | undefined;
  for (let i = 0; i < contacts.length; i++) {
    const value = field(contacts[i]);
    if (!value) continue;
    const size = map.size;
    map.set(value, contacts[i].id);
    if (map.size === size) (shared ??= new Set()).add(value);
  }
  if (!shared) return;
  const last = new Map<string, { contact: Contact; text: string }>();
  for (const contact of contacts) {
    const value = field(contact);
    if (!value || !shared.has(value)) continue;
    const text = contactSearchText(contact);
    const best = last.get(value);
    if (!best || (compareKeys(best.text, text) || best.contact.id - contact.id) < 0) last.set(value, { contact, text });
  }
  for (const [value, { contact }] of last) map.set(value, contact.id);
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
  if (state.naming) state.naming.dirty.add(contact.id);
  else insertName(state, contact);
}

/** Removes a contact from the state and its indexes. */
export function dropContact(state: ContactsState, id: number): void {
  const old = state.contacts.get(id);
  if (!old) return;
  if (state.naming) state.naming.dirty.add(id);
  else removeName(state, id, nameKey(old));
  if (old.number && state.byNumber.get(old.number) === id) state.byNumber.delete(old.number);
  if (old.lid && state.byLid.get(old.lid) === id) state.byLid.delete(old.lid);
  state.contacts.delete(id);
}

/** Puts a contact into the name index (name order, search texts, trigram filter). */
function insertName(state: ContactsState, contact: Contact): void {
  const text = contactSearchText(contact);
  const at = position(state, text.slice(0, text.indexOf("\u0001")), contact.id);
  state.byName.splice(at, 0, contact.id);
  state.searchTexts.splice(at, 0, text);
  state.grams.add(contact.id, text);
  state.textById[contact.id] = text;
}

/** Takes contact `id`, whose sort key is `key`, out of the name index. */
function removeName(state: ContactsState, id: number, key: string): void {
  const at = position(state, key, id);
  if (state.byName[at] === id) {
    state.byName.splice(at, 1);
    state.searchTexts.splice(at, 1);
  }
  state.textById[id] = undefined;
}

/**
 * Adds many new contacts at once (import): sorts the batch and merges it into the name order
 * in one pass, instead of one splice per contact (a 50,000-row import would otherwise move
 * the arrays 50,000 times).
 */
export function putMany(state: ContactsState, batch: readonly Contact[]): void {
  if (batch.length < 32 || state.naming) {
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
