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

/** Most old slots one step of a merge copies in one block (`PostingsMerge` #copyUntouched). */
const RUN = 4096;

/** Up to this many ids a growable list is a plain array (see `Postings`). */
const SMALL = 8;

/**
 * A sorted, duplicate-free, growable list of ticket ids. A short list is a plain array, which
 * V8 allocates inline, where a typed array's buffer takes a call into the runtime: most live
 * lists are one new word of one message (a number, a name), and their typed arrays were ~3 µs
 * of the inbound path per message at 512 in flight (issue #34). From `SMALL` ids on, a
 * Uint32Array: 4 bytes an id, which a build's millions of pairs need.
 */
export class Postings {
  ids: number[] | Uint32Array = [];
  size = 0;

  /**
   * A new word's list of its first id, sized to it. Started empty, its first `add` reserved
   * V8's 17 slots of growth (152 B) for what is most often a word of one message (a number,
   * a name), and the live lists live until the next freeze, long enough to reach the old
   * generation: ~160 B a message of the 1.5 KB the open loop promoted (bench/ingest.ts).
   */
  static of(id: number): Postings {
    const postings = new Postings();
    postings.ids = [id];
    postings.size = 1;
    return postings;
  }

  /** Adds `id`; returns whether it was new. Appends in O(1) when ids arrive in order. */
  add(id: number): boolean {
    const last = this.size > 0 ? this.ids[this.size - 1] : -1;
    if (id === last) return false;
    let at = this.size;
    if (id < last) {
      at = lowerBound(this.ids, 0, this.size, id);
      if (this.ids[at] === id) return false;
    }
    const ids = this.ids;
    if (Array.isArray(ids)) {
      if (this.size < SMALL) {
        ids.splice(at, 0, id);
        this.size++;
        return true;
      }
      const typed = new Uint32Array(SMALL * 2);
      typed.set(ids);
      this.ids = typed;
    } else if (this.size === ids.length) {
      const grown = new Uint32Array(ids.length * 2);
      grown.set(ids);
      this.ids = grown;
    }
    this.ids.copyWithin(at + 1, at, this.size);
    this.ids[at] = id;
    this.size++;
    return true;
  }
}

/** The first position in `ids[from, to)` (sorted) whose value is ≥ `id`. */
function lowerBound(ids: ArrayLike<number>, from: number, to: number, id: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ids[mid] < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Every word's sorted ids in one array: word `w`'s ids are `ids[starts[s], starts[s+1])`, s = slots.get(w).
 * A merge keeps the words' slots and appends new words to the same `slots` map (PostingsMerge
 * says why), so a form shares its map with the forms merged from it: a slot at or past its
 * own `words` belongs to a newer form and is none of its words.
 */
export class FrozenPostings {
  /** How many words this form holds: slots `0 … words - 1`. */
  readonly words: number;

  constructor(
    readonly slots: Map<string, number> = new Map(),
    readonly starts: Uint32Array = new Uint32Array(1),
    readonly ids: Uint32Array = new Uint32Array(0),
  ) {
    this.words = starts.length - 1;
  }

  /** Whether `word`'s list holds `id`. */
  has(word: string, id: number): boolean {
    const slot = this.slots.get(word);
    return slot !== undefined && slot < this.words && this.hasIn(slot, id);
  }

  /** This form's words with their slots (not those a newer form appended to the shared map). */
  *wordSlots(): Generator<[string, number]> {
    for (const entry of this.slots) if (entry[1] < this.words) yield entry;
  }

  /** The slots of the words that contain `needle` (a search word matches inside words). */
  slotsContaining(needle: string): number[] {
    const slots: number[] = [];
    for (const [word, slot] of this.slots) if (slot < this.words && word.includes(needle)) slots.push(slot);
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
 *
 * Old words keep their slots and the new ones are appended to the old form's `slots` map, which
 * the new form shares (FrozenPostings' doc): a merge touches the map once per added word, not
 * three times per word of the index. Rebuilding the map cost most of a freeze, and at one new
 * word a message (a number, a name) a freeze's cost grows with the index (issue #34: ~6 µs of
 * the inbound path per message at 512 in flight). Only one merge runs from a form at a time
 * (search_index.ts freezes one at a time; a build starts from an empty form of its own).
 */
export class PostingsMerge {
  #old: FrozenPostings;
  #added: ReadonlyMap<string, Postings>;
  /**
   * How a growable list's value becomes an id: `#base + #sign * value`, its `j`-th value read
   * at `#back * (size - 1) + #sign * j` (with `flipTop`, read backwards). Arithmetic rather
   * than branches, so the merge loops run the same operations whichever lists they merge and
   * never meet one their optimized code has no feedback for (see `#mergeSlot`).
   */
  #base: number;
  #sign: number;
  #back: number;
  /** Where the merge is: sorting the added words (0), merging the old words (1), then the new (2). */
  #phase = 0;
  #addedWords: Iterator<[string, Postings]>;
  /** The added list of each old slot that has one. */
  #bySlot: Array<Postings | undefined>;
  /** The added words the old form lacks, in the order they get their slots. */
  #newWords: string[] = [];
  /** The next old slot to merge, then the next new word's index. */
  #next = 0;
  #starts: Uint32Array | null = null;
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
    this.#base = flipTop ?? 0;
    this.#sign = flipTop === null ? 1 : -1;
    this.#back = flipTop === null ? 0 : 1;
    this.#addedWords = added.entries();
    this.#bySlot = new Array(old.words);
    this.#ids = new Uint32Array(old.ids.length + addedPairs);
  }

  step(deadline: number): FrozenPostings | null {
    const old = this.#old;
    for (let n = 1;; n++) {
      if (this.#phase === 0) {
        const next = this.#addedWords.next();
        if (next.done) {
          this.#phase = 1;
          this.#starts = new Uint32Array(old.words + this.#newWords.length + 1);
        } else {
          const [word, postings] = next.value;
          const slot = old.slots.get(word);
          if (slot !== undefined && slot < old.words) this.#bySlot[slot] = postings;
          else this.#newWords.push(word);
        }
      } else if (this.#phase === 1) {
        if (this.#next === old.words) {
          this.#phase = 2;
          this.#next = 0;
        } else {
          const slot = this.#next;
          const more = this.#bySlot[slot];
          if (more) {
            this.#next++;
            this.#mergeSlot(slot, old.starts[slot], old.starts[slot + 1], more);
          } else this.#next = this.#copyUntouched(slot);
        }
      } else {
        if (this.#next === this.#newWords.length) break;
        const k = this.#next++;
        const word = this.#newWords[k];
        this.#appendNew(old.words + k, this.#added.get(word)!);
        // The shared map learns each new word's slot here, spread over the steps: the old form
        // ignores slots from its `words` on, and a merge that stops early leaves only such
        // slots, which the next merge gives again. Set in one go at the end, 50,000 new words
        // (a freeze in bench/ingest.ts, a new number a message) took ~10 ms past the deadline.
        old.slots.set(word, old.words + k);
      }
      if ((n & 15) === 0 && performance.now() >= deadline) return null;
    }
    const words = old.words + this.#newWords.length;
    const starts = this.#starts!;
    starts[words] = this.#size;
    // A copy to the exact length only when the slack is large (copying 16 MB is a pause too).
    const slack = this.#ids.length - this.#size > this.#size / 8;
    const ids = slack ? this.#ids.slice(0, this.#size) : this.#ids.subarray(0, this.#size);
    return new FrozenPostings(old.slots, starts, ids);
  }

  /**
   * Appends slot `slot`'s merged list: the old ids `[i, iEnd)` and `more`'s, duplicates
   * dropped (each side holds an id once). A new word's list goes through `#appendNew` instead,
   * so the two loops each meet only the kind of list they were optimized for: one loop for
   * both read the old ids in a branch that a new word never took, and when its Maglev code had
   * been compiled on new words, each old word's merge left it for the interpreter there (189
   * times in one `bench/ingest.ts` run, `--trace-deopt`: "Insufficient type feedback for
   * generic keyed access"), for the rest of a list of thousands of ids.
   */
  #mergeSlot(slot: number, i: number, iEnd: number, more: Postings): void {
    const oldIds = this.#old.ids;
    const jEnd = more.size;
    this.#reserve(iEnd - i + jEnd);
    const ids = this.#ids;
    this.#starts![slot] = this.#size;
    let size = this.#size;
    let last = -1;
    const moreIds = more.ids;
    const base = this.#base;
    const sign = this.#sign;
    const first = this.#back * (jEnd - 1);
    for (let j = 0; j < jEnd; j++) {
      const next = base + sign * moreIds[first + sign * j];
      while (i < iEnd && oldIds[i] <= next) {
        const id = oldIds[i++];
        if (id !== last) ids[size++] = last = id;
      }
      if (next !== last) ids[size++] = last = next;
    }
    // The old ids left are all above the last written: one block.
    ids.set(oldIds.subarray(i, iEnd), size);
    this.#size = size + iEnd - i;
  }

  /** Appends new word slot `slot`'s list: `more`'s ids (see `#mergeSlot`). */
  #appendNew(slot: number, more: Postings): void {
    const jEnd = more.size;
    this.#reserve(jEnd);
    const ids = this.#ids;
    const size = this.#size;
    this.#starts![slot] = size;
    // Before the loop: code optimized in the middle of a long first list (OSR) has run nothing
    // after it, and left for the interpreter there on every later call (`--trace-deopt`).
    this.#size = size + jEnd;
    const moreIds = more.ids;
    const base = this.#base;
    const sign = this.#sign;
    const first = this.#back * (jEnd - 1);
    for (let j = 0; j < jEnd; j++) ids[size + j] = base + sign * moreIds[first + sign * j];
  }

  /**
   * Copies the old lists from `slot` on that gained nothing, up to the next that did (at most
   * `RUN` slots, so a step still looks at the clock): one block of ids and their starts
   * shifted, where a merge per slot cost a call and a loop for each. Most words gain nothing
   * in a freeze (one new word a message, a number or a name, each listed once): a freeze of
   * 2,000 new words into an index of a million took 36–44 ms slot by slot and 18–21 ms so.
   * Returns the slot after the run.
   */
  #copyUntouched(slot: number): number {
    const old = this.#old;
    const bySlot = this.#bySlot;
    const limit = Math.min(old.words, slot + RUN);
    let end = slot + 1;
    while (end < limit && bySlot[end] === undefined) end++;
    const from = old.starts[slot];
    const to = old.starts[end];
    this.#reserve(to - from);
    const starts = this.#starts!;
    const shift = this.#size - from;
    for (let s = slot; s < end; s++) starts[s] = old.starts[s] + shift;
    this.#ids.set(old.ids.subarray(from, to), this.#size);
    this.#size += to - from;
    return end;
  }

  /** Grows the output so `more` ids fit. */
  #reserve(more: number): void {
    if (this.#size + more <= this.#ids.length) return;
    const grown = new Uint32Array(Math.max(this.#size + more, this.#ids.length * 2));
    grown.set(this.#ids.subarray(0, this.#size));
    this.#ids = grown;
  }
}
