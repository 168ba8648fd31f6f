/**
 * Records by id in a plain array indexed by id: the part of `Map`'s interface the
 * ticket index's `byId` and the contacts' records are read with (get, has, set, delete,
 * size, keys, values, entries).
 *
 * Why (issue #23 §3, a million tickets in one process): a Map entry costs ~37 bytes a ticket
 * (key, value, chain link, bucket and the table's doubling slack); an array slot costs 8.
 * Filling a Map with 500,000 contacts took 355 ms of a start, this 73 ms. Ids come from a
 * per-company counter, so they are dense and the array has few holes.
 * Iteration is by ascending id (a Map's was by insertion, which the desk's load and the
 * counter make nearly the same; no caller depends on it).
 */
/** What a reader of records by id needs: a `ReadonlyMap` and a `DenseIdMap` both give it. */
export interface ReadonlyIdMap<T> {
  readonly size: number;
  get(id: number): T | undefined;
  has(id: number): boolean;
  keys(): IterableIterator<number>;
  values(): IterableIterator<T>;
  entries(): IterableIterator<[number, T]>;
  [Symbol.iterator](): IterableIterator<[number, T]>;
}

/** How far past the array's end an id may be and still go in it (see `#far`). */
const FAR = 1 << 20;

export class DenseIdMap<T> implements ReadonlyIdMap<T> {
  #items: (T | undefined)[] = [];
  /** Ids far past the array's end (not from the counter), in a Map: the array stays dense. */
  readonly #far = new Map<number, T>();
  #size = 0;

  get size(): number {
    return this.#size + this.#far.size;
  }

  get(id: number): T | undefined {
    return this.#items[id] ?? this.#far.get(id);
  }

  has(id: number): boolean {
    return this.get(id) !== undefined;
  }

  set(id: number, item: T): this {
    const items = this.#items;
    if (!Number.isInteger(id) || id < 0 || (id >= items.length && id - items.length > FAR)) {
      this.#far.set(id, item);
      return this;
    }
    if (items[id] === undefined) this.#size++;
    // Filling the gap up to `id` keeps the array's elements in the fast kind (the desk loads
    // tickets in recency order, not by id).
    while (items.length < id) items.push(undefined);
    items[id] = item;
    return this;
  }

  delete(id: number): boolean {
    if (this.#far.delete(id)) return true;
    if (this.#items[id] === undefined) return false;
    this.#items[id] = undefined;
    this.#size--;
    return true;
  }

  *keys(): IterableIterator<number> {
    for (const [id] of this.entries()) yield id;
  }

  *values(): IterableIterator<T> {
    for (const [, item] of this.entries()) yield item;
  }

  *entries(): IterableIterator<[number, T]> {
    const items = this.#items;
    for (let id = 0; id < items.length; id++) {
      const item = items[id];
      if (item !== undefined) yield [id, item];
    }
    if (this.#far.size) yield* [...this.#far].sort((a, b) => a[0] - b[0]);
  }

  [Symbol.iterator](): IterableIterator<[number, T]> {
    return this.entries();
  }
}
