/**
 * Ids by string key (a contact's number, its LID) in an open-addressing table of typed
 * arrays: the part of `Map<string, number>`'s interface the contacts' indexes use (get, has,
 * set, delete, size, entries).
 *
 * Why (issue #23 §3): filling a `Map` with the 500,000 numbers of a company's contacts took
 * ~0.9 s of the start's single thread (V8 hashes each fresh string in the runtime, phone
 * numbers through its integer-index path), while reading the same strings took 60 ms. Here
 * the hash is a loop over the characters, kept beside the key so growing never reads a
 * string again and a probe compares a string only when the hashes agree.
 *
 * Linear probing, at most half full; a delete shifts the run after it back (no tombstones).
 * Ids are integers below 2^31.
 */
export class StringIdMap {
  #keys: (string | undefined)[] = new Array(16).fill(undefined);
  #hashes = new Int32Array(16);
  #ids = new Int32Array(16);
  #mask = 15;
  #size = 0;

  get size(): number {
    return this.#size;
  }

  get(key: string): number | undefined {
    const at = this.#find(key, hashOf(key));
    return at < 0 ? undefined : this.#ids[at];
  }

  has(key: string): boolean {
    return this.#find(key, hashOf(key)) >= 0;
  }

  set(key: string, id: number): this {
    const hash = hashOf(key);
    const found = this.#find(key, hash);
    if (found >= 0) {
      this.#ids[found] = id;
      return this;
    }
    if ((this.#size + 1) * 2 > this.#mask + 1) this.#grow();
    this.#put(key, hash, id);
    this.#size++;
    return this;
  }

  delete(key: string): boolean {
    let at = this.#find(key, hashOf(key));
    if (at < 0) return false;
    const keys = this.#keys;
    const mask = this.#mask;
    // Backward shift: each later entry of the run moves into the hole when its home slot
    // does not lie (cyclically) between the hole and itself.
    for (let next = (at + 1) & mask; keys[next] !== undefined; next = (next + 1) & mask) {
      const home = this.#hashes[next] & mask;
      const stays = at <= next ? at < home && home <= next : at < home || home <= next;
      if (stays) continue;
      keys[at] = keys[next];
      this.#hashes[at] = this.#hashes[next];
      this.#ids[at] = this.#ids[next];
      at = next;
    }
    keys[at] = undefined;
    this.#size--;
    return true;
  }

  *entries(): IterableIterator<[string, number]> {
    const keys = this.#keys;
    for (let at = 0; at < keys.length; at++) {
      const key = keys[at];
      if (key !== undefined) yield [key, this.#ids[at]];
    }
  }

  [Symbol.iterator](): IterableIterator<[string, number]> {
    return this.entries();
  }

  /** The slot holding `key`, or -1. */
  #find(key: string, hash: number): number {
    const keys = this.#keys;
    const mask = this.#mask;
    for (let at = hash & mask;; at = (at + 1) & mask) {
      const held = keys[at];
      if (held === undefined) return -1;
      if (this.#hashes[at] === hash && held === key) return at;
    }
  }

  /** Puts a key known to be absent into the first free slot of its run. */
  #put(key: string, hash: number, id: number): void {
    const keys = this.#keys;
    const mask = this.#mask;
    let at = hash & mask;
    while (keys[at] !== undefined) at = (at + 1) & mask;
    keys[at] = key;
    this.#hashes[at] = hash;
    this.#ids[at] = id;
  }

  #grow(): void {
    const keys = this.#keys;
    const hashes = this.#hashes;
    const ids = this.#ids;
    const capacity = keys.length * 2;
    this.#keys = new Array(capacity).fill(undefined);
    this.#hashes = new Int32Array(capacity);
    this.#ids = new Int32Array(capacity);
    this.#mask = capacity - 1;
    for (let at = 0; at < keys.length; at++) {
      const key = keys[at];
      if (key !== undefined) this.#put(key, hashes[at], ids[at]);
    }
  }
}

/** FNV-1a over the UTF-16 units, then a finalizer that spreads the low bits. */
function hashOf(key: string): number {
  let h = 0x811c9dc5 | 0;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 16777619);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h;
}
