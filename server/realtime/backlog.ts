/**
 * The bounded backlog of one company's events, for resuming after a reconnect. Sequence
 * numbers are contiguous (the room numbers every event it keeps), so the entry of seq `s`
 * sits at a fixed offset from the oldest one and a replay is a slice, not a search.
 */
import type { BusEvent } from "../../domain/events.ts";

/** One numbered event, with its encoded frames cached once for every recipient. */
export interface BacklogEntry {
  seq: number;
  /** When it was published (ms since epoch). */
  at: number;
  event: BusEvent;
  json?: string;
  packed?: Uint8Array;
}

/** A ring of the last `max` entries, also trimmed by age. */
export class Backlog {
  #ring: (BacklogEntry | undefined)[];
  #head = 0;
  #size = 0;

  constructor(readonly max: number) {
    this.#ring = new Array(Math.max(1, max));
  }

  /** How many entries are kept. */
  get size(): number {
    return this.#size;
  }

  /** Appends an entry (its seq must be the previous one's plus one), evicting the oldest. */
  push(entry: BacklogEntry): void {
    const cap = this.#ring.length;
    if (this.#size === cap) {
      this.#head = (this.#head + 1) % cap;
      this.#size--;
    }
    this.#ring[(this.#head + this.#size) % cap] = entry;
    this.#size++;
  }

  /** The seq of the oldest kept entry, or undefined when empty. */
  oldestSeq(): number | undefined {
    return this.#size ? this.#ring[this.#head]!.seq : undefined;
  }

  /** Drops entries published before `cutoff` (ms since epoch). */
  trimOlderThan(cutoff: number): void {
    while (this.#size && this.#ring[this.#head]!.at < cutoff) {
      this.#ring[this.#head] = undefined;
      this.#head = (this.#head + 1) % this.#ring.length;
      this.#size--;
    }
  }

  /** The entries with `from < seq <= to`, oldest first; the caller checks coverage first. */
  *range(from: number, to: number): Generator<BacklogEntry> {
    const oldest = this.oldestSeq();
    if (oldest === undefined) return;
    const start = Math.max(0, from + 1 - oldest);
    const end = Math.min(this.#size, to - oldest + 1);
    for (let i = start; i < end; i++) yield this.#ring[(this.#head + i) % this.#ring.length]!;
  }
}
