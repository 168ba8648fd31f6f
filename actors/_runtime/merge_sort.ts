/**
 * A merge sort of the numbers 0…n-1 that hands control back while it runs: a generator that
 * yields every `STEP` comparisons, so a caller can sort half a million keys in the
 * background, pausing between slices, and another can run it to the end at once. A native
 * `sort` with a comparator would hold the event loop for the whole sort (~300 ms for the
 * 500,000 contacts of issue #23 §3). Stable; `compare` gets positions, as `sort` would.
 */

/** Comparisons between two yields. */
const STEP = 16_384;
/** Runs sorted by insertion before merging. */
const RUN = 16;

/** Sorts 0…n-1 by `compare`; the result is the generator's return value. */
export function* sortedPositions(n: number, compare: (a: number, b: number) => number): Generator<void, Int32Array> {
  let src = new Int32Array(n);
  for (let i = 0; i < n; i++) src[i] = i;
  let work = 0;
  for (let lo = 0; lo < n; lo += RUN) {
    const hi = Math.min(n, lo + RUN);
    for (let i = lo + 1; i < hi; i++) {
      const v = src[i];
      let j = i - 1;
      while (j >= lo && compare(src[j], v) > 0) {
        src[j + 1] = src[j];
        j--;
      }
      src[j + 1] = v;
    }
    work += (hi - lo) * 4;
    if (work >= STEP) {
      work = 0;
      yield;
    }
  }
  let dst = new Int32Array(n);
  for (let width = RUN; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(n, lo + width);
      const hi = Math.min(n, lo + 2 * width);
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        dst[k++] = compare(src[j], src[i]) < 0 ? src[j++] : src[i++];
        if (++work >= STEP) {
          work = 0;
          yield;
        }
      }
      while (i < mid) dst[k++] = src[i++];
      while (j < hi) dst[k++] = src[j++];
    }
    [src, dst] = [dst, src];
  }
  return src;
}

/** Runs a stepwise generator to its end at once. */
export function runToEnd<T>(steps: Generator<void, T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}
