/**
 * Which message holds a provider id: an in-memory index per company over the durable
 * `provider_log` (keys.ts), which every writer of a provider id appends to in the same atomic
 * as the message.
 *
 * Why not a KV index keyed by provider id (`message_by_provider`, which this replaces):
 * provider ids look random, so each such entry landed at a random, usually uncached place in
 * SQLite's B-tree (and a second one in KV's expiration index, which mirrors the key order).
 * It was the costliest write of an inbound message: KV alone sustained 7.8k messages/s with
 * it, 17–18k with the log, whose keys are message ids and so grow with time and append at
 * one end (bench/ingest.ts `--kv-floor`). The price is memory: 24 bytes an id in typed
 * arrays plus 4–8 bytes of hash slots (about 32 MB a million ids), outside V8's heap, so
 * the collector never walks them.
 *
 * The index keeps two 32-bit hashes of each id with the message's place (its ticket and the
 * time and sequence of its id), so an id is never stored as a string. A lookup returns every
 * message whose hashes match, and the caller reads that message and compares its provider
 * id (`holderAmong`): a hash collision or a stale entry (a deleted message, a write that
 * failed) costs one read, never a wrong answer. A new id, nearly every inbound message,
 * matches nothing and needs no read at all.
 *
 * A company's index is built from one scan of its log (and of the `message_by_provider`
 * entries older stores still hold), in the background from start-up (server/boot.ts) or on
 * its first lookup or write; lookups wait for the scan, since until it ends the index cannot
 * say "absent". Ids written meanwhile are
 * noted by `add`, which every writer calls before its write commits, so the scan and the
 * adds together cover everything stored. This assumes one process owns the store, as the
 * actors already do; ids written by another process would be missed.
 */
import { messageId as messageIdOf, parseMessageId } from "../../domain/message.ts";
import { type LegacyProviderRef, legacyProviderPrefix, messageKey, messageLogPrefix } from "./keys.ts";
import { appendedEntries } from "../_runtime/appended_log.ts";
import { log } from "../_runtime/log.ts";
import { storedMessageOrNull } from "./stored.ts";

/** Where a message is stored. */
export interface MessageRef {
  ticketId: number;
  messageId: string;
}

/** Entries a company's index starts with (it doubles as it fills). */
const MIN_ENTRIES = 1024;

/** One company's index; see the module doc. Entry `e` is `hashA[e]`, `hashB[e]`, `stamp[e]`, `ticket[e]`. */
interface CompanyIndex {
  hashA: Uint32Array;
  hashB: Uint32Array;
  /** `at * 1000 + seq` of the message id (below 2^53 until the year 2255: exact). */
  stamp: Float64Array;
  ticket: Float64Array;
  n: number;
  /** Open addressing by `hashA`, linear probing: entry + 1, 0 when free; at most half full. */
  slots: Int32Array;
  /** The scan in progress, or null once it ended or when it failed. */
  building: Promise<void> | null;
  built: boolean;
}

const NONE: readonly MessageRef[] = Object.freeze([]);

/** The per-app index, one per company; see the module doc. */
export class ProviderIndex {
  #companies = new Map<number, CompanyIndex>();

  constructor(readonly kv: Deno.Kv) {}

  /**
   * Every message that may hold `providerId` (to confirm with `holderAmong`). Synchronous once
   * the company's index is built; a promise while its scan runs.
   */
  find(companyId: number, providerId: string): readonly MessageRef[] | Promise<readonly MessageRef[]> {
    const index = this.#index(companyId);
    if (index.built) return lookup(index, providerId);
    return (index.building ?? this.#scan(companyId, index)).then(() => lookup(index, providerId));
  }

  /**
   * Notes that message `messageId` holds `providerId`; call it wherever a log entry is
   * written, before the write commits (see the module doc).
   */
  add(companyId: number, providerId: string, messageId: string): void {
    if (!insertId(this.#index(companyId), providerId, messageId)) throw new Error(`Not a message id: ${messageId}`);
  }

  /** Starts building the company's index, if it is not built or building (start-up). */
  warm(companyId: number): void {
    this.#index(companyId);
  }

  /** How many ids the company's index holds and the bytes its arrays take (benchmarks). */
  size(companyId: number): { ids: number; bytes: number } {
    const index = this.#companies.get(companyId);
    if (!index) return { ids: 0, bytes: 0 };
    const arrays = [index.hashA, index.hashB, index.stamp, index.ticket, index.slots];
    return { ids: index.n, bytes: arrays.reduce((sum, a) => sum + a.byteLength, 0) };
  }

  /** Forgets a company (its data was purged). */
  drop(companyId: number): void {
    this.#companies.delete(companyId);
  }

  /** Whether the company's index is built (tests wait for it). */
  ready(companyId: number): boolean {
    return this.#companies.get(companyId)?.built ?? false;
  }

  /** The company's index, its scan started when it is new. */
  #index(companyId: number): CompanyIndex {
    let index = this.#companies.get(companyId);
    if (!index) {
      index = {
        hashA: new Uint32Array(MIN_ENTRIES),
        hashB: new Uint32Array(MIN_ENTRIES),
        stamp: new Float64Array(MIN_ENTRIES),
        ticket: new Float64Array(MIN_ENTRIES),
        n: 0,
        slots: new Int32Array(2 * MIN_ENTRIES),
        building: null,
        built: false,
      };
      this.#companies.set(companyId, index);
      this.#scan(companyId, index).catch(() => {}); // a lookup awaits it; a failure is logged
    }
    return index;
  }

  /** Adds every stored id of the company; a failed scan is retried by the next lookup. */
  #scan(companyId: number, index: CompanyIndex): Promise<void> {
    const scan = (async () => {
      // An entry whose message id does not parse was not written by this code: skipped.
      // A page of commits' values is up to ~40 KB each (appended_log.ts): 200 a page.
      for await (const entry of this.kv.list({ prefix: messageLogPrefix(companyId) }, { batchSize: 200 })) {
        for (const [id, providerId] of appendedEntries<string | null>(entry, 2)) {
          if (providerId !== null) insertId(index, providerId, id);
        }
      }
      for await (
        const entry of this.kv.list<LegacyProviderRef>({ prefix: legacyProviderPrefix(companyId) }, { batchSize: 1000 })
      ) {
        insertId(index, String(entry.key[2]), entry.value[1]);
      }
      index.built = true;
    })();
    index.building = scan;
    scan.catch((error) => log.error(`Provider index of company ${companyId} failed to build:`, { error }))
      .finally(() => index.building = null);
    return scan;
  }
}

/**
 * The first of `candidates` whose message holds `providerId`, each read at its message key
 * with `get` (a plain read, or the inbound path's batched one: the KV value as stored,
 * stored.ts); null when none does.
 */
export async function holderAmong(
  companyId: number,
  candidates: readonly MessageRef[],
  providerId: string,
  get: (key: Deno.KvKey) => Promise<unknown>,
): Promise<MessageRef | null> {
  for (const candidate of candidates) {
    const message = storedMessageOrNull(await get(messageKey(companyId, candidate.ticketId, candidate.messageId)));
    if (message?.providerId === providerId) return candidate;
  }
  return null;
}

/** The entries whose hashes match `providerId`'s. */
function lookup(index: CompanyIndex, providerId: string): readonly MessageRef[] {
  const a = hashA(providerId);
  const b = hashB(providerId);
  const mask = index.slots.length - 1;
  let found: MessageRef[] | null = null;
  for (let s = a & mask, e = index.slots[s]; e !== 0; s = (s + 1) & mask, e = index.slots[s]) {
    const i = e - 1;
    if (index.hashA[i] !== a || index.hashB[i] !== b) continue;
    const at = Math.floor(index.stamp[i] / 1000);
    const ticketId = index.ticket[i];
    (found ??= []).push({ ticketId, messageId: messageIdOf(ticketId, at, index.stamp[i] - at * 1000) });
  }
  return found ?? NONE;
}

/** Adds `providerId` held by `messageId`; false when `messageId` is not a message id. */
function insertId(index: CompanyIndex, providerId: string, messageId: string): boolean {
  const parsed = parseMessageId(messageId);
  if (!parsed) return false;
  insert(index, hashA(providerId), hashB(providerId), parsed.at * 1000 + parsed.seq, parsed.ticketId);
  return true;
}

/** Adds an entry unless the same one is there (a scan may meet an id already added). */
function insert(index: CompanyIndex, a: number, b: number, stamp: number, ticket: number): void {
  const mask = index.slots.length - 1;
  let s = a & mask;
  for (let e = index.slots[s]; e !== 0; s = (s + 1) & mask, e = index.slots[s]) {
    const i = e - 1;
    if (index.hashA[i] === a && index.hashB[i] === b && index.stamp[i] === stamp && index.ticket[i] === ticket) return;
  }
  if (index.n === index.hashA.length) grow(index);
  const i = index.n++;
  index.hashA[i] = a;
  index.hashB[i] = b;
  index.stamp[i] = stamp;
  index.ticket[i] = ticket;
  if (2 * index.n > index.slots.length) reslot(index, index.slots.length * 2);
  else index.slots[s] = i + 1;
}

/** Doubles the entry arrays. */
function grow(index: CompanyIndex): void {
  const size = index.hashA.length * 2;
  const copy = <T extends Uint32Array | Float64Array>(from: T, to: T) => (to.set(from), to);
  index.hashA = copy(index.hashA, new Uint32Array(size));
  index.hashB = copy(index.hashB, new Uint32Array(size));
  index.stamp = copy(index.stamp, new Float64Array(size));
  index.ticket = copy(index.ticket, new Float64Array(size));
}

/** Rebuilds the slots at `size` (a power of two) from the entries. */
function reslot(index: CompanyIndex, size: number): void {
  const slots = new Int32Array(size);
  const mask = size - 1;
  for (let i = 0; i < index.n; i++) {
    let s = index.hashA[i] & mask;
    while (slots[s] !== 0) s = (s + 1) & mask;
    slots[s] = i + 1;
  }
  index.slots = slots;
}

/** FNV-1a, then a final mix so its low bits (the slot) spread well. */
function hashA(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A second, independent hash (multiply-rotate with another constant): 64 bits together. */
function hashB(id: string): number {
  let h = 0x6c62272e;
  for (let i = 0; i < id.length; i++) {
    h = Math.imul(h ^ id.charCodeAt(i), 0x5bd1e995);
    h ^= h >>> 15;
  }
  return h >>> 0;
}
