/**
 * Ticket id by uuid (GET /tickets/u/:uuid), as an open-addressing hash table of ticket ids in
 * an Int32Array: the uuid itself is not stored again, a probe compares it with the record's
 * (`uuidOf`, the ticket index's records).
 *
 * Why (issue #23 §3, a million tickets in one process): a `Map<string, number>` entry cost ~37
 * bytes a ticket; here a ticket takes 2-4 slots of 4 bytes (the table is kept at most half
 * full, linear probing, deletes shift the run back so no tombstones accumulate).
 */

/**
 * FNV-1a over the uuid's characters: of a canonical uuid only the first 8 and the last 12 hex
 * digits (random in v4 and in v7, whose first 12 are its time), which halves the cost of a
 * million-ticket load's hashing; any other string whole.
 */
export function hashOf(uuid: string): number {
  let h = 0x811c9dc5;
  const canonical = uuid.length === 36;
  for (let i = 0; i < (canonical ? 8 : uuid.length); i++) h = Math.imul(h ^ uuid.charCodeAt(i), 0x01000193);
  if (canonical) for (let i = 24; i < 36; i++) h = Math.imul(h ^ uuid.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** See the module doc. Slot value 0 is empty (ticket ids start at 1). */
export class UuidIndex {
  #slots = new Int32Array(1024);
  #count = 0;
  /** The uuid of the ticket the index holds under an id (its current record's). */
  readonly uuidOf: (id: number) => string | undefined;

  constructor(uuidOf: (id: number) => string | undefined) {
    this.uuidOf = uuidOf;
  }

  get size(): number {
    return this.#count;
  }

  /** The id of the ticket with this uuid, or undefined. */
  get(uuid: string): number | undefined {
    const slots = this.#slots;
    const mask = slots.length - 1;
    for (let i = hashOf(uuid) & mask;; i = (i + 1) & mask) {
      const id = slots[i];
      if (id === 0) return undefined;
      if (this.uuidOf(id) === uuid) return id;
    }
  }

  /** Adds ticket `id` under `uuid` (its record's uuid); nothing when it is there already. */
  set(uuid: string, id: number): void {
    if ((this.#count + 1) * 2 > this.#slots.length) this.#grow(this.#slots.length * 2);
    if (this.#place(this.#slots, uuid, id)) this.#count++;
  }

  /**
   * `set` with the uuid's `hashOf` computed by the caller: the desk's bulk load hashes every
   * uuid in the pass that reads the records in memory order (a uuid read in recency order is
   * a cache miss: 0.85 s of a million-ticket load).
   */
  setHashed(hash: number, id: number): void {
    if ((this.#count + 1) * 2 > this.#slots.length) this.#grow(this.#slots.length * 2);
    if (this.#placeHashed(this.#slots, hash, id)) this.#count++;
  }

  /**
   * Makes room for `count` more ids at once: the desk's bulk load calls it first, since each
   * growth re-reads every uuid through its record (a quarter of a million-ticket load's time).
   */
  reserve(count: number): void {
    let size = this.#slots.length;
    while ((this.#count + count) * 2 > size) size *= 2;
    if (size > this.#slots.length) this.#grow(size);
  }

  /** Removes ticket `id` from under `uuid`; nothing when it is not there. */
  delete(uuid: string, id: number): void {
    const slots = this.#slots;
    const mask = slots.length - 1;
    let i = hashOf(uuid) & mask;
    while (slots[i] !== id) {
      if (slots[i] === 0) return;
      i = (i + 1) & mask;
    }
    slots[i] = 0;
    this.#count--;
    // Shift back the rest of the run: an entry whose home is not in (i, j] moves into the hole.
    for (let j = (i + 1) & mask; slots[j] !== 0; j = (j + 1) & mask) {
      const home = hashOf(this.uuidOf(slots[j]) ?? "") & mask;
      const between = i <= j ? i < home && home <= j : i < home || home <= j;
      if (between) continue;
      slots[i] = slots[j];
      slots[j] = 0;
      i = j;
    }
  }

  /** Every [uuid, id] held (for tests and snapshots). */
  *[Symbol.iterator](): IterableIterator<[string, number]> {
    for (const id of this.#slots) if (id !== 0) yield [this.uuidOf(id)!, id];
  }

  /** Places `id` in `slots`; false when it was there already. */
  #place(slots: Int32Array, uuid: string, id: number): boolean {
    return this.#placeHashed(slots, hashOf(uuid), id);
  }

  #placeHashed(slots: Int32Array, hash: number, id: number): boolean {
    const mask = slots.length - 1;
    let i = hash & mask;
    for (; slots[i] !== 0; i = (i + 1) & mask) if (slots[i] === id) return false;
    slots[i] = id;
    return true;
  }

  #grow(size: number): void {
    const next = new Int32Array(size);
    for (const id of this.#slots) if (id !== 0) this.#place(next, this.uuidOf(id) ?? "", id);
    this.#slots = next;
  }
}
