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

/** See the module doc. */
export class GramFilter {
  readonly #bits = new Map<number, Uint32Array>();
  /** Blocks each map has room for (a multiple of 32). */
  #capacity = 32;

  /** Notes contact `id`'s search text. */
  add(id: number, text: string): void {
    const block = Math.floor(id / BLOCK);
    if (block >= this.#capacity) this.#grow(block);
    const word = block >>> 5;
    const bit = 1 << (block & 31);
    for (let i = 0; i + 3 <= text.length; i++) {
      const gram = gramAt(text, i);
      let bits = this.#bits.get(gram);
      if (!bits) this.#bits.set(gram, bits = new Uint32Array(this.#capacity >>> 5));
      bits[word] |= bit;
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
    if (Math.floor(maxId / BLOCK) >= this.#capacity) this.#grow(Math.floor(maxId / BLOCK));
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
        if (keys[at] === 0) at = table.claim(at, gram, this.#bitsOf(gram));
        table.bits[at]![word] |= bit;
      }
    }
  }

  /** The bits of `gram`, made (empty) when it is new. */
  #bitsOf(gram: number): Uint32Array {
    let bits = this.#bits.get(gram);
    if (!bits) this.#bits.set(gram, bits = new Uint32Array(this.#capacity >>> 5));
    return bits;
  }

  /**
   * The blocks that may hold a text containing `term`, ascending; undefined when the term is
   * too short to narrow anything (fewer than three characters: every block may).
   */
  candidates(term: string): number[] | undefined {
    if (term.length < 3) return undefined;
    let acc: Uint32Array | undefined;
    for (let i = 0; i + 3 <= term.length; i++) {
      const bits = this.#bits.get(gramAt(term, i));
      if (!bits) return [];
      if (!acc) acc = bits.slice();
      else for (let w = 0; w < acc.length; w++) acc[w] &= bits[w];
    }
    const blocks: number[] = [];
    for (let w = 0; w < acc!.length; w++) {
      for (let word = acc![w]; word !== 0; word &= word - 1) blocks.push(w * 32 + 31 - Math.clz32(word & -word));
    }
    return blocks;
  }

  /** Distinct trigrams held (for the benchmarks' memory figures). */
  get size(): number {
    return this.#bits.size;
  }

  #grow(block: number): void {
    let capacity = this.#capacity;
    while (capacity <= block) capacity *= 2;
    for (const [gram, bits] of this.#bits) {
      const next = new Uint32Array(capacity >>> 5);
      next.set(bits);
      this.#bits.set(gram, next);
    }
    this.#capacity = capacity;
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
  bits: (Uint32Array | undefined)[] = [];
  mask = 1023;
  shift = 22;
  #held = 0;

  /** Puts `gram` with `bits` in the empty slot `at`; returns its slot (another if the table grew). */
  claim(at: number, gram: number, bits: Uint32Array): number {
    this.keys[at] = gram + 1;
    this.bits[at] = bits;
    if (++this.#held * 2 <= this.mask) return at;
    const { keys, block, bits: old } = this;
    this.mask = this.mask * 2 + 1;
    this.shift--;
    this.keys = new Int32Array(this.mask + 1);
    this.block = new Int32Array(this.mask + 1);
    this.bits = [];
    let found = -1;
    for (let j = 0; j < keys.length; j++) {
      if (keys[j] === 0) continue;
      let to = Math.imul(keys[j] - 1, 0x9e3779b1) >>> this.shift;
      while (this.keys[to] !== 0) to = (to + 1) & this.mask;
      this.keys[to] = keys[j];
      this.block[to] = block[j];
      this.bits[to] = old[j];
      if (keys[j] === gram + 1) found = to;
    }
    return found;
  }
}
