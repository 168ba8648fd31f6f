/**
 * Ticket ids grouped by a number (a contact, a user, a queue), each id in at most one group:
 * what `Map<number, Set<number>>` held for the ticket index, in typed arrays instead.
 *
 * Why (issue #23 §3, a million tickets in one process): a Set per contact cost ~94 bytes a
 * ticket (a contact has one or two tickets, and the smallest Set is a JS object plus a hash
 * table of four entries), and the report's Sets of every ticket per user and per queue ~69
 * more. Here a group is a doubly linked list threaded through arrays indexed by ticket id
 * (ticket ids come from a per-company counter, so they are dense): 12 bytes a ticket, plus
 * four slots per group and its key's entry (`KeySlots`: an array slot for the keys of
 * counters, a Map entry for others). Ids iterate in the order they were added, as a Set's
 * do; adding, removing and moving an id are O(1).
 */

/** Keys past this many times the groups held (+ 64k) go in the Map: the array stays dense. */
const KEY_SPREAD = 4;

/**
 * Group key → slot: a key from a counter (an integer below the bound above) at its index in
 * an Int32Array (slot + 1; 0: none), any other key in a Map. Why: at 500,000 contacts the
 * Map of byContact's keys cost ~30 bytes and a hash insert per contact (a quarter of a
 * million-ticket load's groups); the array 4 bytes and a store.
 */
class KeySlots {
  /** Key → slot + 1 for the keys held in the array (read in place by `IdGroups.addAll`). */
  dense = new Int32Array(64);
  readonly #far = new Map<number, number>();
  size = 0;

  get(key: number): number | undefined {
    if (key >= 0 && key < this.dense.length && (key | 0) === key) {
      const slot = this.dense[key];
      if (slot !== 0) return slot - 1;
    }
    return this.#far.size === 0 ? undefined : this.#far.get(key);
  }

  /** Sets a key that has no slot. */
  add(key: number, slot: number): void {
    this.size++;
    if (key >= 0 && (key | 0) === key && key < KEY_SPREAD * this.size + 65536) {
      if (key >= this.dense.length) {
        let n = this.dense.length;
        while (n <= key) n *= 2;
        const dense = new Int32Array(n);
        dense.set(this.dense);
        this.dense = dense;
      }
      this.dense[key] = slot + 1;
    } else this.#far.set(key, slot);
  }

  delete(key: number): void {
    this.size--;
    if (key >= 0 && key < this.dense.length && (key | 0) === key && this.dense[key] !== 0) this.dense[key] = 0;
    else this.#far.delete(key);
  }
}

/** What a group reads like: its size and its ids (a ReadonlySet<number> is one too). */
export interface IdGroup extends Iterable<number> {
  readonly size: number;
}

/** See the module doc. Id 0 is never a ticket: 0 in the link arrays means "none". */
export class IdGroups {
  /** Group key → slot in the arrays below. */
  readonly #slots = new KeySlots();
  /** Per slot, side by side at 3 × slot (one cache line): its first id, last id and size. */
  #groups = new Int32Array(3 * 64);
  #keyOf = new Float64Array(64);
  /** Slots of deleted groups, reused before new ones. */
  #freeSlots: number[] = [];
  #slotCount = 0;
  /**
   * Per id, side by side at 3 × id (one cache line, where three arrays were three misses
   * for an id of a bulk load's scattered ids): the next id of its group (+0), the previous
   * (+1), and its slot + 1 (+2; 0: in no group).
   */
  #links = new Int32Array(3 * 1024);
  /** How many ids `#links` has room for. */
  #idRoom = 1024;

  /** How many groups hold at least one id. */
  get groupCount(): number {
    return this.#slots.size;
  }

  /** Adds `id` to `key`'s group (moving it out of the group it was in, if another). */
  add(key: number, id: number): void {
    if (id >= this.#idRoom) this.#growIds(id);
    const current = this.#links[3 * id + 2];
    let slot = this.#slots.get(key);
    if (current !== 0) {
      if (slot !== undefined && current === slot + 1) return;
      this.#unlink(id, current - 1);
      slot = this.#slots.get(key);
    }
    if (slot === undefined) slot = this.#newSlot(key);
    this.#append(slot, id);
  }

  /** Links `id` (in no group) at the end of group `slot`. */
  #append(slot: number, id: number): void {
    const groups = this.#groups;
    const links = this.#links;
    const tail = groups[3 * slot + 1];
    links[3 * id + 1] = tail;
    links[3 * id] = 0;
    if (tail === 0) groups[3 * slot] = id;
    else links[3 * tail] = id;
    groups[3 * slot + 1] = id;
    groups[3 * slot + 2]++;
    links[3 * id + 2] = slot + 1;
  }

  /**
   * `add(keys[i], ids[i])` for each i in order (the desk's bulk load: ids oldest first and
   * their keys, load_rows.ts `rankRows`, read front to back), the id arrays grown once.
   */
  addAll(keys: ArrayLike<number>, ids: ArrayLike<number>): void {
    const n = ids.length;
    let maxId = 0;
    for (let i = 0; i < n; i++) if (ids[i] > maxId) maxId = ids[i];
    if (maxId >= this.#idRoom) this.#growIds(maxId);
    const links = this.#links;
    for (let i = 0; i < n; i++) {
      const id = ids[i];
      const key = keys[i];
      if (links[3 * id + 2] !== 0) {
        this.add(key, id); // an id already in a group moves, as `add` does
        continue;
      }
      const dense = this.#slots.dense;
      let slot = key >= 0 && key < dense.length && (key | 0) === key ? dense[key] - 1 : -1;
      if (slot < 0) slot = this.#slots.get(key) ?? this.#newSlot(key);
      this.#append(slot, id);
    }
  }

  /** Removes `id` from `key`'s group; nothing when it is not there. */
  delete(key: number, id: number): void {
    const slot = this.#slots.get(key);
    if (slot === undefined || id >= this.#idRoom || this.#links[3 * id + 2] !== slot + 1) return;
    this.#unlink(id, slot);
  }

  /** `key`'s ids, or undefined when it has none (as `Map.get` of an emptied Set was). */
  get(key: number): IdGroup | undefined {
    const slot = this.#slots.get(key);
    return slot === undefined ? undefined : this.#view(slot);
  }

  /** Every group with its ids (for tests and snapshots), in slot order (a freed slot is reused). */
  *[Symbol.iterator](): IterableIterator<[number, IdGroup]> {
    for (let slot = 0; slot < this.#slotCount; slot++) {
      if (this.#groups[3 * slot + 2] > 0) yield [this.#keyOf[slot], this.#view(slot)];
    }
  }

  #view(slot: number): IdGroup {
    const links = this.#links;
    const head = this.#groups[3 * slot];
    return {
      size: this.#groups[3 * slot + 2],
      *[Symbol.iterator]() {
        for (let id = head; id !== 0; id = links[3 * id]) yield id;
      },
    };
  }

  #unlink(id: number, slot: number): void {
    const links = this.#links;
    const prev = links[3 * id + 1];
    const next = links[3 * id];
    if (prev === 0) this.#groups[3 * slot] = next;
    else links[3 * prev] = next;
    if (next === 0) this.#groups[3 * slot + 1] = prev;
    else links[3 * next + 1] = prev;
    links[3 * id + 2] = 0;
    if (--this.#groups[3 * slot + 2] === 0) {
      this.#slots.delete(this.#keyOf[slot]);
      this.#freeSlots.push(slot);
    }
  }

  #newSlot(key: number): number {
    let slot = this.#freeSlots.pop();
    if (slot === undefined) {
      slot = this.#slotCount++;
      if (slot >= this.#keyOf.length) {
        const n = this.#keyOf.length * 2;
        this.#groups = grown(this.#groups, 3 * n);
        const keys = new Float64Array(n);
        keys.set(this.#keyOf);
        this.#keyOf = keys;
      }
    }
    this.#groups[3 * slot] = 0;
    this.#groups[3 * slot + 1] = 0;
    this.#groups[3 * slot + 2] = 0;
    this.#keyOf[slot] = key;
    this.#slots.add(key, slot);
    return slot;
  }

  #growIds(id: number): void {
    let n = this.#idRoom;
    while (n <= id) n *= 2;
    this.#links = grown(this.#links, 3 * n);
    this.#idRoom = n;
  }
}

function grown(old: Int32Array, n: number): Int32Array<ArrayBuffer> {
  const next = new Int32Array(n);
  next.set(old);
  return next;
}
