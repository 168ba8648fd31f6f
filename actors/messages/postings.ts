/**
 * Posting lists of the message search index (search_index.ts): for each word, the sorted ids
 * of the tickets whose messages contain it.
 *
 * Two forms. `Postings` is one growable typed array per word: cheap to append to, but each
 * word then costs an ArrayBuffer with its own allocation and up to half its capacity unused
 * (1M messages: 4.1M pairs took 55 MB instead of 17). `FrozenPostings` packs every word's
 * ids into one array with offsets (compressed sparse rows): 4 bytes a pair plus 4 a word.
 * The index builds and takes live additions in the growable form and freezes them into the
 * packed form after the build and whenever the additions grow large (`PostingsMerge`, which
 * works a few words at a time so a large index is packed without one long pause: 4M pairs
 * took 170–580 ms in one go on a loaded machine). A build reads the newest tickets first, so
 * its lists hold flipped ids (`top - id`, ascending) until they are packed.
 */

/** A sorted, duplicate-free, growable list of ticket ids. */
export class Postings {
  ids = new Uint32Array(4);
  size = 0;

  /** Adds `id`; returns whether it was new. Appends in O(1) when ids arrive in order. */
  add(id: number): boolean {
    const last = this.size > 0 ? this.ids[this.size - 1] : -1;
    if (id === last) return false;
    let at = this.size;
    if (id < last) {
      at = lowerBound(this.ids, 0, this.size, id);
      if (this.ids[at] === id) return false;
    }
    if (this.size === this.ids.length) {
      const grown = new Uint32Array(this.ids.length * 2);
      grown.set(this.ids);
      this.ids = grown;
    }
    this.ids.copyWithin(at + 1, at, this.size);
    this.ids[at] = id;
    this.size++;
    return true;
  }

}

/** The first position in `ids[from, to)` (sorted) whose value is ≥ `id`. */
function lowerBound(ids: Uint32Array, from: number, to: number, id: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ids[mid] < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Every word's sorted ids in one array: word `w`'s ids are `ids[starts[s], starts[s+1])`, s = slots.get(w). */
export class FrozenPostings {
  constructor(
    readonly slots: Map<string, number> = new Map(),
    readonly starts: Uint32Array = new Uint32Array(1),
    readonly ids: Uint32Array = new Uint32Array(0),
  ) {}

  /** Whether `word`'s list holds `id`. */
  has(word: string, id: number): boolean {
    const slot = this.slots.get(word);
    return slot !== undefined && this.hasIn(slot, id);
  }

  /** The slots of the words that contain `needle` (a search word matches inside words). */
  slotsContaining(needle: string): number[] {
    const slots: number[] = [];
    for (const [word, slot] of this.slots) if (word.includes(needle)) slots.push(slot);
    return slots;
  }

  /** How many ids the list in `slot` holds. */
  sizeOf(slot: number): number {
    return this.starts[slot + 1] - this.starts[slot];
  }

  /** Whether the list in `slot` holds `id` (a binary search). */
  hasIn(slot: number, id: number): boolean {
    const end = this.starts[slot + 1];
    const at = lowerBound(this.ids, this.starts[slot], end, id);
    return at < end && this.ids[at] === id;
  }

  /** Calls `visit` with each id of the lists in `slots`. */
  visitSlots(slots: readonly number[], visit: (id: number) => void): void {
    for (const slot of slots) {
      for (let i = this.starts[slot]; i < this.starts[slot + 1]; i++) visit(this.ids[i]);
    }
  }

  /** A new frozen form holding these lists and `added` (sorted merges, duplicates dropped), in one go. */
  merge(added: ReadonlyMap<string, Postings>): FrozenPostings {
    return new PostingsMerge(this, added).step(Infinity)!;
  }
}

/** The ids held by `lists` in all. */
function pairsIn(lists: ReadonlyMap<string, Postings>): number {
  let pairs = 0;
  for (const postings of lists.values()) pairs += postings.size;
  return pairs;
}

/**
 * A merge of frozen lists with growable ones into a new frozen form, done a few words at a
 * time: `step(deadline)` works until `performance.now()` passes `deadline` and returns the
 * result once every word is done, null before. The inputs must not change meanwhile (they
 * stay readable). With `flipTop`, the growable lists hold `flipTop - id` (see the module doc).
 */
export class PostingsMerge {
  #old: FrozenPostings;
  #added: ReadonlyMap<string, Postings>;
  #flipTop: number | null;
  /** The old words, then the added words the old ones lack. */
  #oldWords: Iterator<string>;
  #addedWords: Iterator<string>;
  #slots = new Map<string, number>();
  #starts: Uint32Array;
  #ids: Uint32Array;
  #size = 0;

  /**
   * `addedPairs`, the ids `added` holds in all (summed here when not given), sizes the output
   * at once: grown by doubling and then trimmed, a 10M-message build's ids were held up to
   * three times over at the end of the build, the peak of its memory (issue #23 §3).
   */
  constructor(
    old: FrozenPostings,
    added: ReadonlyMap<string, Postings>,
    flipTop: number | null = null,
    addedPairs = pairsIn(added),
  ) {
    this.#old = old;
    this.#added = added;
    this.#flipTop = flipTop;
    this.#oldWords = old.slots.keys();
    this.#addedWords = added.keys();
    this.#starts = new Uint32Array(old.slots.size + added.size + 1);
    this.#ids = new Uint32Array(old.ids.length + addedPairs);
  }

  step(deadline: number): FrozenPostings | null {
    for (let n = 1;; n++) {
      const word = this.#nextWord();
      if (word === null) break;
      this.#mergeWord(word);
      if ((n & 15) === 0 && performance.now() >= deadline) return null;
    }
    const words = this.#slots.size;
    this.#starts[words] = this.#size;
    // A copy to the exact length only when the slack is large (copying 16 MB is a pause too).
    const slack = this.#ids.length - this.#size > this.#size / 8;
    const ids = slack ? this.#ids.slice(0, this.#size) : this.#ids.subarray(0, this.#size);
    return new FrozenPostings(this.#slots, this.#starts.subarray(0, words + 1), ids);
  }

  #nextWord(): string | null {
    const old = this.#oldWords.next();
    if (!old.done) return old.value;
    for (;;) {
      const added = this.#addedWords.next();
      if (added.done) return null;
      if (!this.#old.slots.has(added.value)) return added.value;
    }
  }

  /** Appends `word`'s merged list. */
  #mergeWord(word: string): void {
    const old = this.#old;
    const slot = old.slots.get(word);
    let i = slot === undefined ? 0 : old.starts[slot];
    const iEnd = slot === undefined ? 0 : old.starts[slot + 1];
    const more = this.#added.get(word);
    const jEnd = more?.size ?? 0;
    this.#reserve(iEnd - i + jEnd);
    const ids = this.#ids;
    const top = this.#flipTop;
    this.#starts[this.#slots.size] = this.#size;
    this.#slots.set(word, this.#slots.size);
    let size = this.#size;
    let j = 0;
    let last = -1;
    while (i < iEnd || j < jEnd) {
      let id: number;
      if (j >= jEnd) id = old.ids[i++];
      else {
        const next = top === null ? more!.ids[j] : top - more!.ids[jEnd - 1 - j];
        if (i < iEnd && old.ids[i] <= next) id = old.ids[i++];
        else {
          id = next;
          j++;
        }
      }
      if (id !== last) ids[size++] = last = id;
    }
    this.#size = size;
  }

  /** Grows the output so `more` ids fit. */
  #reserve(more: number): void {
    if (this.#size + more <= this.#ids.length) return;
    const grown = new Uint32Array(Math.max(this.#size + more, this.#ids.length * 2));
    grown.set(this.#ids.subarray(0, this.#size));
    this.#ids = grown;
  }
}
