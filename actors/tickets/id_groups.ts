/**
 * Ticket ids grouped by a number (a contact, a user, a queue), each id in at most one group:
 * what `Map<number, Set<number>>` held for the ticket index, in typed arrays instead.
 *
 * Why (issue #23 §3, a million tickets in one process): a Set per contact cost ~94 bytes a
 * ticket (a contact has one or two tickets, and the smallest Set is a JS object plus a hash
 * table of four entries), and the report's Sets of every ticket per user and per queue ~69
 * more. Here a group is a doubly linked list threaded through arrays indexed by ticket id
 * (ticket ids come from a per-company counter, so they are dense): 12 bytes a ticket, plus
 * one Map entry and four slots per group. Ids iterate in the order they were added, as a
 * Set's do; adding, removing and moving an id are O(1).
 */

/** What a group reads like: its size and its ids (a ReadonlySet<number> is one too). */
export interface IdGroup extends Iterable<number> {
  readonly size: number;
}

/** See the module doc. Id 0 is never a ticket: 0 in the link arrays means "none". */
export class IdGroups {
  /** Group key → slot in the arrays below. */
  readonly #slots = new Map<number, number>();
  #head = new Int32Array(64);
  #tail = new Int32Array(64);
  #size = new Int32Array(64);
  #keyOf = new Float64Array(64);
  /** Slots of deleted groups, reused before new ones. */
  #freeSlots: number[] = [];
  #slotCount = 0;
  /** Per id: the next and previous id of its group, and its slot + 1 (0: in no group). */
  #next = new Int32Array(1024);
  #prev = new Int32Array(1024);
  #in = new Int32Array(1024);

  /** How many groups hold at least one id. */
  get groupCount(): number {
    return this.#slots.size;
  }

  /** Adds `id` to `key`'s group (moving it out of the group it was in, if another). */
  add(key: number, id: number): void {
    if (id >= this.#in.length) this.#growIds(id);
    const current = this.#in[id];
    let slot = this.#slots.get(key);
    if (current !== 0) {
      if (slot !== undefined && current === slot + 1) return;
      this.#unlink(id, current - 1);
      slot = this.#slots.get(key);
    }
    if (slot === undefined) slot = this.#newSlot(key);
    const tail = this.#tail[slot];
    this.#prev[id] = tail;
    this.#next[id] = 0;
    if (tail === 0) this.#head[slot] = id;
    else this.#next[tail] = id;
    this.#tail[slot] = id;
    this.#size[slot]++;
    this.#in[id] = slot + 1;
  }

  /**
   * `add(keys[i], ids[i])` for each i in order (the desk's bulk load: ids oldest first and
   * their keys, load_rows.ts `rankRows`, read front to back). Into empty groups whose keys span a small
   * range, a key's slot is found in a typed array instead of the Map: 3M Map lookups were
   * ~0.8 s of a million-ticket load. The result is the same as adding one by one (slots, and
   * the Map's order, by first appearance).
   */
  addAll(keys: ArrayLike<number>, ids: ArrayLike<number>): void {
    const n = ids.length;
    let min = Infinity;
    let max = -Infinity;
    let maxId = 0;
    for (let i = 0; i < n; i++) {
      const key = keys[i];
      if (key < min) min = key;
      if (key > max) max = key;
      if (ids[i] > maxId) maxId = ids[i];
    }
    const span = max - min + 1;
    const plain = this.#slots.size === 0 && this.#freeSlots.length === 0 && Number.isInteger(min) &&
      Number.isInteger(max) && span <= 4 * n + 1024;
    if (!plain) {
      for (let i = 0; i < n; i++) this.add(keys[i], ids[i]);
      return;
    }
    if (maxId >= this.#in.length) this.#growIds(maxId);
    /** Key − min → slot + 1 (0: no group yet). */
    const slotOf = new Int32Array(span);
    const next = this.#next;
    const prev = this.#prev;
    const into = this.#in;
    for (let i = 0; i < n; i++) {
      const id = ids[i];
      if (into[id] !== 0) {
        // A repeated id moves, as `add` does, which may free a slot `slotOf` still names.
        for (; i < n; i++) this.add(keys[i], ids[i]);
        return;
      }
      const key = keys[i];
      let slot = slotOf[key - min] - 1;
      if (slot < 0) slotOf[key - min] = (slot = this.#newSlot(key)) + 1;
      const tail = this.#tail[slot];
      prev[id] = tail;
      next[id] = 0;
      if (tail === 0) this.#head[slot] = id;
      else next[tail] = id;
      this.#tail[slot] = id;
      this.#size[slot]++;
      into[id] = slot + 1;
    }
  }

  /** Removes `id` from `key`'s group; nothing when it is not there. */
  delete(key: number, id: number): void {
    const slot = this.#slots.get(key);
    if (slot === undefined || id >= this.#in.length || this.#in[id] !== slot + 1) return;
    this.#unlink(id, slot);
  }

  /** `key`'s ids, or undefined when it has none (as `Map.get` of an emptied Set was). */
  get(key: number): IdGroup | undefined {
    const slot = this.#slots.get(key);
    return slot === undefined ? undefined : this.#view(slot);
  }

  /** Every group with its ids (for tests and snapshots). */
  *[Symbol.iterator](): IterableIterator<[number, IdGroup]> {
    for (const [key, slot] of this.#slots) yield [key, this.#view(slot)];
  }

  #view(slot: number): IdGroup {
    const next = this.#next;
    const head = this.#head[slot];
    return {
      size: this.#size[slot],
      *[Symbol.iterator]() {
        for (let id = head; id !== 0; id = next[id]) yield id;
      },
    };
  }

  #unlink(id: number, slot: number): void {
    const prev = this.#prev[id];
    const next = this.#next[id];
    if (prev === 0) this.#head[slot] = next;
    else this.#next[prev] = next;
    if (next === 0) this.#tail[slot] = prev;
    else this.#prev[next] = prev;
    this.#in[id] = 0;
    if (--this.#size[slot] === 0) {
      this.#slots.delete(this.#keyOf[slot]);
      this.#freeSlots.push(slot);
    }
  }

  #newSlot(key: number): number {
    let slot = this.#freeSlots.pop();
    if (slot === undefined) {
      slot = this.#slotCount++;
      if (slot >= this.#head.length) {
        const n = this.#head.length * 2;
        this.#head = grown(this.#head, n);
        this.#tail = grown(this.#tail, n);
        this.#size = grown(this.#size, n);
        const keys = new Float64Array(n);
        keys.set(this.#keyOf);
        this.#keyOf = keys;
      }
    }
    this.#head[slot] = 0;
    this.#tail[slot] = 0;
    this.#size[slot] = 0;
    this.#keyOf[slot] = key;
    this.#slots.set(key, slot);
    return slot;
  }

  #growIds(id: number): void {
    let n = this.#in.length;
    while (n <= id) n *= 2;
    this.#next = grown(this.#next, n);
    this.#prev = grown(this.#prev, n);
    this.#in = grown(this.#in, n);
  }
}

function grown(old: Int32Array, n: number): Int32Array<ArrayBuffer> {
  const next = new Int32Array(n);
  next.set(old);
  return next;
}
