/**
 * The demo history's dice: a seeded generator (mulberry32), so every start with the same
 * seed and end time replays the same thirty days and tests can rely on what they find.
 */

/** A generator of numbers in [0, 1) and the draws the history makes with it. */
export class Dice {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** The next number in [0, 1). */
  next(): number {
    let t = (this.#state = (this.#state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of `list` (not empty). */
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)];
  }

  /** One key of `weights`, drawn in proportion to its weight. */
  weighted<K extends string | number>(weights: ReadonlyArray<readonly [K, number]>): K {
    const total = weights.reduce((sum, [, w]) => sum + w, 0);
    let x = this.next() * total;
    for (const [key, w] of weights) {
      x -= w;
      if (x < 0) return key;
    }
    return weights[weights.length - 1][0];
  }
}
