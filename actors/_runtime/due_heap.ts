/**
 * A set of entries by id, each due at a time, ordered earliest first: a min-heap of
 * (dueAt, seq, id) with lazy deletion. Setting an entry again or deleting it leaves its old
 * heap slot stale, skipped when it reaches the top; stale slots are dropped in one rebuild
 * once they outnumber the live ones. `seq` keeps setting order among equal due times.
 * The ticket desk's timer wheel (timer_wheel.ts) and a process's alarm clock (alarms.ts)
 * keep their entries in one.
 */

/** A heap slot: due time, setting order, id. */
type Slot = [number, number, string];

const before = (a: Slot, b: Slot) => a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);

/** See the module doc. */
export class DueHeap<T extends { dueAt: number }> {
  readonly #entries = new Map<string, T & { seq: number }>();
  #heap: Slot[] = [];
  #seq = 0;

  /** Number of entries. */
  get size(): number {
    return this.#entries.size;
  }

  /** Entry `id`, or undefined. */
  get(id: string): T | undefined {
    return this.#entries.get(id);
  }

  /** Sets (or replaces) entry `id`. */
  set(id: string, entry: T): void {
    const seq = this.#seq++;
    this.#entries.set(id, { ...entry, seq });
    this.#push([entry.dueAt, seq, id]);
    if (this.#heap.length > 64 && this.#heap.length > 3 * this.#entries.size) this.#rebuild();
  }

  /** Deletes entry `id`; false when there was none. */
  delete(id: string): boolean {
    return this.#entries.delete(id);
  }

  /** Deletes every entry for which `drop` holds. */
  deleteWhere(drop: (id: string, entry: T) => boolean): void {
    for (const [id, entry] of this.#entries) if (drop(id, entry)) this.#entries.delete(id);
  }

  /** The earliest entry and its id, or undefined when there is none. */
  peek(): [string, T] | undefined {
    while (this.#heap.length > 0) {
      const top = this.#heap[0];
      const entry = this.#entries.get(top[2]);
      if (entry && entry.seq === top[1]) return [top[2], entry];
      this.#pop();
    }
    return undefined;
  }

  /** Removes and returns the earliest entry if it is due at `now`. */
  takeDue(now: number): [string, T] | undefined {
    const top = this.peek();
    if (!top || top[1].dueAt > now) return undefined;
    this.#pop();
    this.#entries.delete(top[0]);
    return top;
  }

  #rebuild(): void {
    this.#heap = [...this.#entries].map(([id, e]): Slot => [e.dueAt, e.seq, id]);
    this.#heap.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
  }

  #push(slot: Slot): void {
    const heap = this.#heap;
    heap.push(slot);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i], heap[parent])) break;
      [heap[i], heap[parent]] = [heap[parent], heap[i]];
      i = parent;
    }
  }

  #pop(): void {
    const heap = this.#heap;
    const last = heap.pop()!;
    if (heap.length === 0) return;
    heap[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && before(heap[l], heap[m])) m = l;
      if (r < heap.length && before(heap[r], heap[m])) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m], heap[i]];
      i = m;
    }
  }
}
