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

/** Trigram of `text` at `i` as one number (three UTF-16 units; exact, below 2^48). */
function gramAt(text: string, i: number): number {
  return text.charCodeAt(i) * 4294967296 + text.charCodeAt(i + 1) * 65536 + text.charCodeAt(i + 2);
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
