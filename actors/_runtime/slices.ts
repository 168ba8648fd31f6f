/**
 * Long work in the background (an index built after a start) done in slices of `SLICE_MS`
 * with a pause of `REST_MS` between them, so requests keep being served while it runs.
 */

/** Work done before letting pending requests in. */
export const SLICE_MS = 4;

/**
 * The pause after each slice. Not `setTimeout(0)`: a timer due at every turn of the event
 * loop ran a slice between every two steps of a request (each KV read, each actor's answer),
 * so a search that takes 2 ms took 300 ms during a build (bench/inbox.ts, loaded machine).
 */
export const REST_MS = 2;

/** Resolves after a pause in which the event loop serves what is pending. */
export function rest(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, REST_MS));
}

/** Waits for `promise` at most `ms` (no wait left behind when it settles first). */
export async function within(promise: Promise<void>, ms: number): Promise<void> {
  if (ms <= 0) return;
  if (ms === Infinity) return await promise;
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([promise, new Promise<void>((resolve) => timer = setTimeout(resolve, ms))]);
  clearTimeout(timer);
}

/**
 * Runs a stepwise generator (one that yields where it may pause) in slices: its result, or
 * undefined when `running` said to stop at a pause.
 */
export async function runInSlices<T>(steps: Generator<void, T>, running: () => boolean): Promise<T | undefined> {
  let sliceEnd = performance.now() + SLICE_MS;
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    if (performance.now() < sliceEnd) continue;
    await rest();
    if (!running()) return undefined;
    sliceEnd = performance.now() + SLICE_MS;
  }
}
