/**
 * What a phone knows about its contacts and chats, for `POST /contacts/import` and
 * `/contacts/import/chats`. `individualNumber` turns a JID into the digits of one person (no
 * groups, broadcasts, status, newsletters or bots; a LID only through a known number), and
 * `PhoneBook` is the bounded memory the Baileys adapter fills from its events: Baileys has no
 * "list contacts" call, it only delivers `contacts.upsert`/`contacts.update`, `chats.upsert`/
 * `chats.update` and the `contacts`/`chats` of `messaging-history.set`.
 */
import type { PhoneContact } from "../../domain/channel.ts";
import { isLidJid, jidUser } from "./baileys_map.ts";
import { digits } from "./types.ts";

/** JID servers of one person's chat (`c.us` is the legacy spelling). */
const PERSON_SERVERS = new Set(["s.whatsapp.net", "c.us"]);

/**
 * The number (digits) of a person's JID, "" for anything else. A LID (`…@lid`) resolves through
 * `lids` (LID user → number) or gives "". A bare number passes as its digits.
 */
export function individualNumber(jid: string | null | undefined, lids?: ReadonlyMap<string, string>): string {
  if (!jid) return "";
  const at = jid.indexOf("@");
  if (at < 0) return digits(jid);
  if (isLidJid(jid)) return lids?.get(jidUser(jid)) ?? "";
  return PERSON_SERVERS.has(jid.slice(at + 1)) ? digits(jidUser(jid)) : "";
}

/** The first non-blank name among `names`, trimmed ("" when none). */
export function bestName(...names: Array<string | null | undefined>): string {
  for (const name of names) {
    const trimmed = typeof name === "string" ? name.trim() : "";
    if (trimmed) return trimmed;
  }
  return "";
}

/** Drops entries without a number and keeps each number once, the first named sighting winning. */
export function uniqueContacts(list: Iterable<PhoneContact>): PhoneContact[] {
  const byNumber = new Map<string, PhoneContact>();
  for (const contact of list) {
    if (!contact.number) continue;
    const seen = byNumber.get(contact.number);
    if (!seen || (!seen.name && contact.name)) byNumber.set(contact.number, contact);
  }
  return [...byNumber.values()];
}

/** A Baileys `Contact` (or a partial update of one), read loosely. */
export interface ContactLike {
  id?: string | null;
  lid?: string | null;
  name?: string | null;
  notify?: string | null;
  verifiedName?: string | null;
}

/** A Baileys `Chat` (proto.IConversation) or `ChatUpdate`, read loosely. */
export interface ChatLike {
  id?: string | null;
  name?: string | null;
  displayName?: string | null;
  pnJid?: string | null;
  lidJid?: string | null;
}

interface Names {
  name?: string;
  notify?: string;
  verifiedName?: string;
}

/** Sets `key` as the newest entry of `map`, dropping the oldest beyond `limit`. */
function put<V>(map: Map<string, V>, key: string, value: V, limit: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > limit) map.delete(map.keys().next().value!);
}

/** Copies the defined, non-blank names of `from` over `into`. */
function mergeNames(into: Names, from: ContactLike | ChatLike): Names {
  const next = { ...into };
  for (const field of ["name", "notify", "verifiedName"] as const) {
    const value = bestName((from as Record<string, string | null | undefined>)[field]);
    if (value) next[field] = value;
  }
  return next;
}

/**
 * The contacts and chats one Baileys connection has seen, keyed by JID (a LID entry waits
 * for its number). Bounded: beyond `limit` entries per map the oldest sighting is dropped.
 */
export class PhoneBook {
  #contacts = new Map<string, Names>();
  #chats = new Map<string, Names>();
  #lids = new Map<string, string>();
  #limit: number;

  constructor(limit = 20_000) {
    this.#limit = limit;
  }

  /** `contacts.upsert`, `contacts.update`, history contacts: merges names by JID. */
  addContacts(list: readonly ContactLike[] | null | undefined): void {
    for (const c of list ?? []) {
      const jid = this.#personJid(c.id);
      if (!jid) continue;
      if (c.lid && isLidJid(c.lid) && !isLidJid(jid)) this.linkLid(jidUser(c.lid), jidUser(jid));
      put(this.#contacts, jid, mergeNames(this.#contacts.get(jid) ?? {}, c), this.#limit);
    }
  }

  /** `chats.upsert`, `chats.update`, history chats: remembers individual chats and their names. */
  addChats(list: readonly ChatLike[] | null | undefined): void {
    for (const c of list ?? []) {
      const jid = this.#personJid(c.id);
      if (!jid) continue;
      if (isLidJid(jid) && c.pnJid && !isLidJid(c.pnJid)) this.linkLid(jidUser(jid), jidUser(c.pnJid));
      if (!isLidJid(jid) && c.lidJid && isLidJid(c.lidJid)) this.linkLid(jidUser(c.lidJid), jidUser(jid));
      const names = mergeNames(this.#chats.get(jid) ?? {}, { name: bestName(c.name, c.displayName) });
      put(this.#chats, jid, names, this.#limit);
    }
  }

  /** A LID's phone number became known (`lid-mapping.update`, `chats.phoneNumberShare`). */
  linkLid(lid: string, number: string): void {
    if (lid && number) put(this.#lids, lid, digits(number), this.#limit);
  }

  /** The address book: every person with a name (saved, push name or business name). */
  phoneContacts(): PhoneContact[] {
    const named: PhoneContact[] = [];
    for (const [jid, names] of this.#contacts) {
      const name = bestName(names.name, names.notify, names.verifiedName);
      if (name) named.push({ number: individualNumber(jid, this.#lids), name });
    }
    return uniqueContacts(named);
  }

  /**
   * The named people among `list` (a batch just given to addContacts), as the address book
   * now knows them: what that batch adds for an automatic import (allowupserts).
   */
  namedAmong(list: readonly ContactLike[] | null | undefined): PhoneContact[] {
    const named: PhoneContact[] = [];
    for (const c of list ?? []) {
      const jid = this.#personJid(c.id);
      const names = jid ? this.#contacts.get(jid) : undefined;
      const name = names ? bestName(names.name, names.notify, names.verifiedName) : "";
      const number = name ? individualNumber(jid, this.#lids) : "";
      if (number) named.push({ number, name });
    }
    return uniqueContacts(named);
  }

  /** Every individual chat, named by the chat or else by the contact ("" when neither). */
  chatContacts(): PhoneContact[] {
    return uniqueContacts([...this.#chats].map(([jid, chat]) => {
      const contact = this.#contacts.get(jid) ?? {};
      const name = bestName(chat.name, contact.name, contact.notify, contact.verifiedName);
      return { number: individualNumber(jid, this.#lids), name };
    }));
  }

  /** Forgets everything (logout: the next pairing may be another phone). */
  clear(): void {
    this.#contacts.clear();
    this.#chats.clear();
    this.#lids.clear();
  }

  /** The JID without device suffix when it is a person (number or LID), else "". */
  #personJid(id: string | null | undefined): string {
    if (!id) return "";
    if (isLidJid(id)) return `${jidUser(id)}@lid`;
    return individualNumber(id) ? `${jidUser(id)}@s.whatsapp.net` : "";
  }
}
