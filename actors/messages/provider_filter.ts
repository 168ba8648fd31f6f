/**
 * Which provider ids a company may have stored: a Bloom filter over its `message_by_provider`
 * keys, so that the inbound path can skip the dedupe read for an id that is certainly new,
 * which is nearly every message. Under load that read is not free: it waits on the KV
 * thread behind the commit in flight, and a round of reads splits the messages in flight
 * into two stages, halving the group commit's batches (bench/ingest.ts at 512: ~339 → ~506
 * write units per atomic and ~10% more messages/s without it).
 *
 * A filter never says "absent" for an id that is stored (no false negatives), which is all
 * dedupe needs; "maybe" (about 1% of new ids, and every id stored before) costs the read as
 * before. It is built from one scan of the company's keys, lazily, on the company's first
 * inbound message, in the background; until the scan is done every answer is "maybe". Ids
 * stored meanwhile are noted by `add`, which every writer of a provider key calls (the
 * messages actor), so the scan and the adds together cover everything stored. A deleted id
 * stays in the filter: a stale "maybe" only costs a read. When the company outgrows the
 * filter's capacity its bits are rebuilt twice as large from the ids' hashes, kept for that.
 *
 * This assumes one process owns the store, as the actors already do (their state is the
 * truth in memory); ids written by another process would be missed.
 */
import { providerKeysPrefix } from "./keys.ts";

/** Bits per expected id and probes per id: ~1% false "maybe" at capacity. */
const BITS_PER_ID = 10;
const PROBES = 7;
/** The smallest capacity a company's filter is sized for. */
const MIN_CAPACITY = 1 << 16;

/**
 * One company's filter. `hashes` holds the two hashes of every id scanned or added (8 bytes
 * an id: a million ids are 8 MB), so the bits can be rebuilt larger without a new scan;
 * `bits` is null until the scan is done.
 */
interface CompanyFilter {
  bits: Uint32Array | null;
  hashes: Uint32Array;
  /** Ids in `hashes` (an id scanned and added counts twice: harmless). */
  n: number;
  /** Ids the bits were sized for; past this they are rebuilt twice as large. */
  capacity: number;
  /** The scan failed: the next `mayHave` starts another. */
  failed: boolean;
}

/** The per-app filters, one per company; see the module doc. */
export class ProviderFilter {
  #companies = new Map<number, CompanyFilter>();

  constructor(readonly kv: Deno.Kv) {}

  /** False only when `providerId` is certainly not stored for the company. */
  mayHave(companyId: number, providerId: string): boolean {
    const filter = this.#companies.get(companyId) ?? this.#start(companyId);
    if (filter.failed) this.#scan(companyId, filter);
    return filter.bits === null || test(filter.bits, hashes(providerId));
  }

  /**
   * Notes an id about to be stored; call it wherever a provider key is written, before the
   * write commits. With no filter yet this starts one: a scan starting later could pass the
   * id's place before its commit lands, so the id must already be in the filter's list.
   */
  add(companyId: number, providerId: string): void {
    const filter = this.#companies.get(companyId) ?? this.#start(companyId);
    const [a, b] = hashes(providerId);
    push(filter, a, b);
    if (filter.bits === null) return; // the scan's end sets the bits from the whole list
    if (filter.n > filter.capacity) fill(filter, filter.capacity * 2);
    else setBits(filter.bits, a, b);
  }

  /** Forgets a company (its data was purged). */
  drop(companyId: number): void {
    this.#companies.delete(companyId);
  }

  /** Whether the company's filter is built (tests wait for it). */
  ready(companyId: number): boolean {
    return this.#companies.get(companyId)?.bits != null;
  }

  #start(companyId: number): CompanyFilter {
    const filter: CompanyFilter = {
      bits: null,
      hashes: new Uint32Array(2 * 1024),
      n: 0,
      capacity: MIN_CAPACITY,
      failed: false,
    };
    this.#companies.set(companyId, filter);
    this.#scan(companyId, filter);
    return filter;
  }

  /** Adds every stored id of the company to the list, then sets the bits. */
  #scan(companyId: number, filter: CompanyFilter): void {
    filter.failed = false;
    (async () => {
      for await (const entry of this.kv.list({ prefix: providerKeysPrefix(companyId) }, { batchSize: 1000 })) {
        const [a, b] = hashes(String(entry.key[2]));
        push(filter, a, b);
      }
      if (this.#companies.get(companyId) === filter) fill(filter, Math.max(MIN_CAPACITY, filter.n * 2));
    })().catch((error) => {
      // Stay at "maybe" (reads as before); the next message starts another scan.
      filter.failed = true;
      console.error(`Provider filter of company ${companyId} failed to build:`, error);
    });
  }
}

/** Appends an id's hashes to the filter's list. */
function push(filter: CompanyFilter, a: number, b: number): void {
  if (2 * filter.n === filter.hashes.length) {
    const bigger = new Uint32Array(filter.hashes.length * 2);
    bigger.set(filter.hashes);
    filter.hashes = bigger;
  }
  filter.hashes[2 * filter.n] = a;
  filter.hashes[2 * filter.n + 1] = b;
  filter.n++;
}

/** (Re)builds the bits for `capacity` ids from the whole list. */
function fill(filter: CompanyFilter, capacity: number): void {
  const bits = new Uint32Array(Math.ceil((capacity * BITS_PER_ID) / 32));
  for (let i = 0; i < filter.n; i++) setBits(bits, filter.hashes[2 * i], filter.hashes[2 * i + 1]);
  filter.capacity = capacity;
  filter.bits = bits;
}

/** Two FNV-1a hashes of the id (different offsets), for double hashing. */
function hashes(id: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x6c62272e;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193);
  }
  return [a >>> 0, (b | 1) >>> 0]; // b odd and unsigned: every probe lands in range
}

function setBits(bits: Uint32Array, a: number, b: number): void {
  const size = bits.length * 32;
  for (let i = 0; i < PROBES; i++) {
    const bit = (a + i * b) % size;
    bits[bit >>> 5] |= 1 << (bit & 31);
  }
}

function test(bits: Uint32Array, [a, b]: [number, number]): boolean {
  const size = bits.length * 32;
  for (let i = 0; i < PROBES; i++) {
    const bit = (a + i * b) % size;
    if ((bits[bit >>> 5] & (1 << (bit & 31))) === 0) return false;
  }
  return true;
}
