/**
 * Which contacts a search term can match, coarsely: for every three-character run (trigram)
 * of the contacts' search texts, one bit per block of `BLOCK` contact ids that has it. A term
 * of three or more characters can only be in a block that has every trigram of the term, so
 * a ticket search (GET /tickets?searchParam, which adds the tickets of matching contacts)
 * reads the texts of those blocks only instead of every contact's.
 *
 * Why (issue #23 §3): at 500,000 contacts, testing every search text took ~60 ms of a 70 ms
 * ticket search, and four agents searching at once waited 270–360 ms. A term that is in no
 * contact ("reembolso", a word of the messages) now costs a few map lookups.
 *
 * Bits are only ever set: a contact that changes or goes leaves its old trigrams in its block,
 * which makes the block a candidate it need not be (the text test rejects it), never the
 * reverse.
 */

/**
 * Contact ids per block (a bit in each trigram's map). Small enough that a phone number's
 * digits, common trigrams each, still name few blocks together ("5511912": 256 named every
 * block of the 500k-contact bench); ~1 KB per trigram at 500k ids.
 */
export const BLOCK = 64;

/**
 * Trigram of `text` at `i` as one number: below 2^30 (a small integer V8 keeps unboxed) when
 * its three UTF-16 units are below 1024 each, as nearly every name's are; else 2^30 plus
 * the three units in 48 bits (exact). A boxed double per trigram was most of the filter's
 * cost to build (issue #23 §3).
 */
function gramAt(text: string, i: number): number {
  const a = text.charCodeAt(i);
  const b = text.charCodeAt(i + 1);
  const c = text.charCodeAt(i + 2);
  if ((a | b | c) < 1024) return (a << 20) | (b << 10) | c;
  return 1073741824 + a * 4294967296 + b * 65536 + c;
}

/**
 * See the module doc. Every trigram's bits sit in one pool, `#words` words a trigram (its
 * slot), rather than a typed array each: at 500,000 contacts that was ~50,000 arrays of 1 KB,
 * each its own backing store outside the heap, and the slices of a name index build that
 * made them ran 15–120 ms instead of ~4 (collections for external memory); a build now
 * reserves the blocks it needs first (`reserve`), so the pool is laid out once.
 */
export class GramFilter {
  /** Trigram → its slot in `#pool`. */
  readonly #slots = new Map<number, number>();
  #pool = new Uint32Array(0);
  /** Blocks each trigram has room for (a multiple of 32), and the words that makes. */
  #capacity = 32;
  #words = 1;

  /** Makes room for contact ids up to `maxId` at once (a bulk build: one layout). */
  reserve(maxId: number): void {
    const block = Math.floor(maxId / BLOCK);
    if (block >= this.#capacity) this.#grow(block);
  }

  /** Notes contact `id`'s search text. */
  add(id: number, text: string): void {
    const block = Math.floor(id / BLOCK);
    if (block >= this.#capacity) this.#grow(block);
    const word = block >>> 5;
    const bit = 1 << (block & 31);
    for (let i = 0; i + 3 <= text.length; i++) {
      // The offset first: `#offsetOf` may move the pool.
      const at = this.#offsetOf(gramAt(text, i)) + word;
      this.#pool[at] |= bit;
    }
  }

  /**
   * `add(ids[i], texts[i])` of every i: the bulk build at activation (state.ts), in record
   * order (nearly by id, so a block's contacts come one after another). A small hash table
   * of its own finds a trigram's bits and skips one already set for this block, and the
   * trigram rolls along the text: 20 million Map lookups were ~1 s at 500,000 contacts.
   */
  addAll(ids: ArrayLike<number>, texts: readonly string[]): void {
    let maxId = -1;
    for (let i = 0; i < ids.length; i++) if (ids[i] > maxId) maxId = ids[i];
    if (maxId < 0) return;
    this.reserve(maxId);
    const table = new SmallGrams();
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k];
      const text = texts[k];
      const block = Math.floor(id / BLOCK);
      const word = block >>> 5;
      const bit = 1 << (block & 31);
      // The trigram (gramAt's small form) rolled along the text, one character per position;
      // at a unit of 1024 or more the text goes through `add` (setting a bit twice is harmless).
      const a = text.length >= 2 ? text.charCodeAt(0) : 0;
      const b = text.length >= 2 ? text.charCodeAt(1) : 0;
      if ((a | b) >= 1024) {
        this.add(id, text);
        continue;
      }
      let gram = (a << 10) | b;
      for (let i = 0; i + 3 <= text.length; i++) {
        const c = text.charCodeAt(i + 2);
        if (c >= 1024) {
          this.add(id, text);
          break;
        }
        gram = ((gram << 10) | c) & 0x3fffffff;
        const keys = table.keys;
        let at = Math.imul(gram, 0x9e3779b1) >>> table.shift;
        while (keys[at] !== gram + 1 && keys[at] !== 0) at = (at + 1) & table.mask;
        if (table.block[at] === block + 1) continue;
        table.block[at] = block + 1;
        if (keys[at] === 0) at = table.claim(at, gram, this.#offsetOf(gram));
        // Read after `#offsetOf`, which may have moved the pool.
        this.#pool[table.offset[at] + word] |= bit;
      }
    }
  }

  /** Where `gram`'s bits begin in `#pool`, given a slot (empty) when it is new. */
  #offsetOf(gram: number): number {
    let slot = this.#slots.get(gram);
    if (slot === undefined) {
      slot = this.#slots.size;
      this.#slots.set(gram, slot);
      if ((slot + 1) * this.#words > this.#pool.length) {
        // By half again, not double: the pool is most of the filter's memory (~1 KB a trigram).
        const pool = new Uint32Array(Math.max(1024, Math.ceil(this.#pool.length * 1.5), (slot + 1) * this.#words));
        pool.set(this.#pool);
        this.#pool = pool;
      }
    }
    return slot * this.#words;
  }

  /**
   * The blocks that may hold a text containing `term`, ascending; undefined when the term is
   * too short to narrow anything (fewer than three characters: every block may).
   */
  candidates(term: string): number[] | undefined {
    if (term.length < 3) return undefined;
    const words = this.#words;
    let acc: Uint32Array | undefined;
    for (let i = 0; i + 3 <= term.length; i++) {
      const slot = this.#slots.get(gramAt(term, i));
      if (slot === undefined) return [];
      const bits = this.#pool.subarray(slot * words, slot * words + words);
      if (!acc) acc = bits.slice();
      else for (let w = 0; w < words; w++) acc[w] &= bits[w];
    }
    const blocks: number[] = [];
    for (let w = 0; w < words; w++) {
      for (let word = acc![w]; word !== 0; word &= word - 1) blocks.push(w * 32 + 31 - Math.clz32(word & -word));
    }
    return blocks;
  }

  /** Distinct trigrams held (for the benchmarks' memory figures). */
  get size(): number {
    return this.#slots.size;
  }

  /** Widens every slot to hold `block`: the pool laid out again. */
  #grow(block: number): void {
    let capacity = this.#capacity;
    while (capacity <= block) capacity *= 2;
    const words = capacity >>> 5;
    const slots = this.#slots.size;
    const pool = new Uint32Array(Math.max(1024, Math.ceil(slots * 1.5) * words, words));
    for (let slot = 0; slot < slots; slot++) {
      pool.set(this.#pool.subarray(slot * this.#words, (slot + 1) * this.#words), slot * words);
    }
    this.#pool = pool;
    this.#capacity = capacity;
    this.#words = words;
  }
}

/**
 * Small trigrams (below 2^30) → their bits and the last block set in them, for `addAll`: an
 * open addressing table in typed arrays (a few thousand distinct trigrams), at most half
 * full, indexed by the top bits of a multiplicative hash. Keys and blocks are stored + 1 (0:
 * empty). Why not the Map: 20 million lookups were ~1 s at 500,000 contacts.
 */
class SmallGrams {
  keys = new Int32Array(1024);
  block = new Int32Array(1024);
  /** Each trigram's offset in the filter's pool. */
  offset = new Int32Array(1024);
  mask = 1023;
  shift = 22;
  #held = 0;

  /** Puts `gram` with its pool `offset` in the empty slot `at`; returns its slot (another if the table grew). */
  claim(at: number, gram: number, offset: number): number {
    this.keys[at] = gram + 1;
    this.offset[at] = offset;
    if (++this.#held * 2 <= this.mask) return at;
    const { keys, block, offset: old } = this;
    this.mask = this.mask * 2 + 1;
    this.shift--;
    this.keys = new Int32Array(this.mask + 1);
    this.block = new Int32Array(this.mask + 1);
    this.offset = new Int32Array(this.mask + 1);
    let found = -1;
    for (let j = 0; j < keys.length; j++) {
      if (keys[j] === 0) continue;
      let to = Math.imul(keys[j] - 1, 0x9e3779b1) >>> this.shift;
      while (this.keys[to] !== 0) to = (to + 1) & this.mask;
      this.keys[to] = keys[j];
      this.block[to] = block[j];
      this.offset[to] = old[j];
      if (keys[j] === gram + 1) found = to;
    }
    return found;
  }
}
