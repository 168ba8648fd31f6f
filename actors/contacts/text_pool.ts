/**
 * The contacts' search texts (domain/contact.ts `contactSearchText`) for the name index
 * (state.ts), by contact id: those a build made packed into one string per `CHUNK` contacts,
 * those written since kept as strings of their own.
 *
 * Why packed (issue #23 §1): a string per contact survived every young collection of the
 * name index build that runs after a start (500,000 at §3's scale), and with production's
 * 64 MB semi-space each scavenge then copied ~20 MB of them in one 30–50 ms pause that the
 * requests waited behind: searches in the first seconds after a 10x start took 120–600 ms,
 * and 30–40 ms with the build moved out of that window. Packed, a build leaves one string
 * per chunk; each contact's text is a short-lived temporary. A scan of every text (a search
 * the trigram filter does not narrow) runs `indexOf` over the chunks instead of a test per
 * string.
 */

/** Texts per packed string: one build step's (state.ts `nameSteps`). */
export const CHUNK = 512;

/** After each packed text, so no match runs from one text into the next (one that does is rejected too). */
const SEP = "\u0002";

export class TextPool {
  /** The packed strings; chunk `c` holds the texts of positions [c·CHUNK, (c+1)·CHUNK). */
  readonly #chunks: string[] = [];
  /** By position: the text's offset in its chunk, and its contact id. */
  #start = new Int32Array(CHUNK);
  #idAt = new Int32Array(CHUNK);
  /** Positions packed so far. */
  #packed = 0;
  /** By contact id: 1 + its packed position (0: none). */
  #positionOf: Int32Array;
  /** Texts set after packing, by id; undefined: the contact is gone. */
  readonly #loose = new Map<number, string | undefined>();

  /** A pool for contact ids up to `maxId` (more may come later). */
  constructor(maxId = 0) {
    this.#positionOf = new Int32Array(maxId + 1);
  }

  /** Packs the texts of a build step: `ids[i]`'s text is `texts[i]`. */
  pack(ids: readonly number[], texts: readonly string[]): void {
    for (let from = 0; from < texts.length; from += CHUNK) {
      const count = Math.min(CHUNK, texts.length - from);
      if (this.#packed % CHUNK !== 0) throw new Error("TextPool.pack: the last chunk is not full");
      const first = this.#packed;
      this.#reserve(first + count);
      let offset = 0;
      for (let i = 0; i < count; i++) {
        const id = ids[from + i];
        this.#start[first + i] = offset;
        this.#idAt[first + i] = id;
        if (id >= this.#positionOf.length) this.#positionOf = grown(this.#positionOf, id + 1);
        this.#positionOf[id] = first + i + 1;
        offset += texts[from + i].length + SEP.length;
      }
      this.#chunks.push(texts.slice(from, from + count).join(SEP) + SEP);
      this.#packed += count;
    }
  }

  #reserve(positions: number): void {
    if (positions <= this.#start.length) return;
    const size = Math.max(positions, Math.ceil(this.#start.length * 1.5));
    this.#start = grown(this.#start, size);
    this.#idAt = grown(this.#idAt, size);
  }

  /** The text of contact `id`, or undefined when it has none. */
  get(id: number): string | undefined {
    if (this.#loose.size > 0 && this.#loose.has(id)) return this.#loose.get(id);
    const position = this.#packedPosition(id);
    if (position < 0) return undefined;
    const chunk = this.#chunks[Math.floor(position / CHUNK)];
    return chunk.slice(this.#start[position], this.#end(position, chunk));
  }

  /** Sets the text of contact `id` (a write after the build). */
  set(id: number, text: string): void {
    this.#loose.set(id, text);
  }

  /** Forgets the text of contact `id`. */
  delete(id: number): void {
    // A packed text stays in its chunk: it is hidden, even after a loose text replaced it.
    if (id < this.#positionOf.length && this.#positionOf[id] !== 0) this.#loose.set(id, undefined);
    else this.#loose.delete(id);
  }

  /** Packed position of `id` when that is its current text, else -1. */
  #packedPosition(id: number): number {
    if (this.#loose.size > 0 && this.#loose.has(id)) return -1;
    return id < this.#positionOf.length ? this.#positionOf[id] - 1 : -1;
  }

  /** By contact id: 1 where its text contains one of `needles` (`visitMatching`), else 0. */
  matching(needles: readonly string[]): Uint8Array {
    const marks = new Uint8Array(this.#idLimit());
    this.visitMatching(needles, (id) => marks[id] = 1);
    return marks;
  }

  /** Every contact id with a text, ascending, and the text. */
  *entries(): Generator<[number, string]> {
    const limit = this.#idLimit();
    for (let id = 0; id < limit; id++) {
      const text = this.get(id);
      if (text !== undefined) yield [id, text];
    }
  }

  /** One past the highest contact id with a text. */
  #idLimit(): number {
    let limit = this.#positionOf.length;
    for (const id of this.#loose.keys()) if (id >= limit) limit = id + 1;
    return limit;
  }

  /** Position `p`'s text's sort key (up to its first \u0001) against position `q`'s, in place. */
  compareKeysAt(p: number, q: number): number {
    return compareKeysIn(
      this.#chunks[Math.floor(p / CHUNK)],
      this.#start[p],
      this.#chunks[Math.floor(q / CHUNK)],
      this.#start[q],
    );
  }

  /**
   * Calls `visit` once with each contact id whose text contains one of `needles` (each
   * needle not empty), in no particular order: one `indexOf` pass per chunk and needle.
   */
  visitMatching(needles: readonly string[], visit: (id: number) => void): void {
    const seen = new Uint8Array(this.#idLimit());
    const once = (id: number) => {
      if (seen[id] === 1) return;
      seen[id] = 1;
      visit(id);
    };
    for (let c = 0; c < this.#chunks.length; c++) {
      const chunk = this.#chunks[c];
      const first = c * CHUNK;
      const count = Math.min(CHUNK, this.#packed - first);
      for (const needle of needles) {
        if (needle.length === 0) continue;
        let from = 0;
        for (;;) {
          const at = chunk.indexOf(needle, from);
          if (at < 0) break;
          const position = first + this.#positionAt(first, count, at);
          const end = this.#end(position, chunk);
          if (at + needle.length > end) {
            from = at + 1; // across two texts: not a match
            continue;
          }
          const id = this.#idAt[position];
          if (this.#packedPosition(id) === position) once(id);
          from = end + 1;
        }
      }
    }
    for (const [id, text] of this.#loose) {
      if (text !== undefined && needles.some((needle) => text.includes(needle))) once(id);
    }
  }

  /** Where position `p`'s text ends in its chunk (`chunk`): offsets, not a separator, say (a text may hold any character). */
  #end(p: number, chunk: string): number {
    const next = p + 1;
    return next < this.#packed && next % CHUNK !== 0 ? this.#start[next] - SEP.length : chunk.length - SEP.length;
  }

  /** Which of the `count` positions from `first` holds chunk offset `at` (a binary search). */
  #positionAt(first: number, count: number, at: number): number {
    let lo = 0;
    let hi = count - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.#start[first + mid] <= at) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}

/** A copy of `array` with room for `size` entries. */
function grown(array: Int32Array, size: number): Int32Array<ArrayBuffer> {
  const next = new Int32Array(size);
  next.set(array);
  return next;
}

/**
 * The sort keys (up to the first \u0001) of the texts at `a[i…]` and `b[j…]`, compared as `<`
 * orders the keys. A text always has its \u0001 (contactSearchText).
 */
export function compareKeysIn(a: string, i: number, b: string, j: number): number {
  for (;; i++, j++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(j);
    if (x === 1 || y === 1) return (x === 1 ? 0 : 1) - (y === 1 ? 0 : 1);
    if (x !== y) return x - y;
  }
}
