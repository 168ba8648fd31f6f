/**
 * Posting lists of the message search index (search_index.ts): for each word, the sorted ids
 * of the tickets whose messages contain it.
 *
 * Two forms. `Postings` is one growable typed array per word: cheap to append to, but each
 * word then costs an ArrayBuffer with its own allocation and up to half its capacity unused
 * (1M messages: 4.1M pairs took 55 MB instead of 17). `FrozenPostings` packs every word's
 * ids into one array with offsets (compressed sparse rows): 4 bytes a pair plus 4 a word.
 * The index builds and takes live additions in the growable form and freezes them into the
 * packed form after the build and whenever the additions grow large (`merge`).
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
    if (slot === undefined) return false;
    const end = this.starts[slot + 1];
    const at = lowerBound(this.ids, this.starts[slot], end, id);
    return at < end && this.ids[at] === id;
  }

  /** Calls `visit` with each id of every word for which `wanted(word)` holds. */
  visit(wanted: (word: string) => boolean, visit: (id: number) => void): void {
    for (const [word, slot] of this.slots) {
      if (!wanted(word)) continue;
      for (let i = this.starts[slot]; i < this.starts[slot + 1]; i++) visit(this.ids[i]);
    }
  }

  /** A new frozen form holding these lists and `added` (sorted merges, duplicates dropped). */
  merge(added: ReadonlyMap<string, Postings>): FrozenPostings {
    const words = new Set([...this.slots.keys(), ...added.keys()]);
    let capacity = this.ids.length;
    for (const p of added.values()) capacity += p.size;
    const slots = new Map<string, number>();
    const starts = new Uint32Array(words.size + 1);
    const ids = new Uint32Array(capacity);
    let size = 0;
    for (const word of words) {
      const slot = slots.size;
      slots.set(word, slot);
      starts[slot] = size;
      const old = this.slots.get(word);
      let i = old === undefined ? 0 : this.starts[old];
      const iEnd = old === undefined ? 0 : this.starts[old + 1];
      const more = added.get(word);
      let j = 0;
      const jEnd = more?.size ?? 0;
      let last = -1;
      while (i < iEnd || j < jEnd) {
        const id = j >= jEnd || (i < iEnd && this.ids[i] <= more!.ids[j]) ? this.ids[i++] : more!.ids[j++];
        if (id !== last) ids[size++] = last = id;
      }
    }
    starts[words.size] = size;
    return new FrozenPostings(slots, starts, size === capacity ? ids : ids.slice(0, size));
  }
}
