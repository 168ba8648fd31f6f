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

/**
 * The turns of one actor system's background work: every job rests through its system's
 * `SliceTurns`, so however many run at once (a message index loading, a contact name index
 * building, a snapshot being saved), together they take one slice in `SLICE_MS + REST_MS`.
 * Why: each resting on its own, two jobs could take turns with no rest between them, and
 * requests had only the gaps of both (after a 10× start the message index loads while the
 * contacts' name index builds, contacts/naming.ts). Sharing the turns keeps a third of the
 * event loop for requests whatever runs in the background.
 */
export class SliceTurns {
  /** `performance.now()` from which the next slice may begin. */
  #free = 0;

  /** Resolves when the caller may run its next slice: after a rest, and after the slices granted before. */
  rest(): Promise<void> {
    const start = Math.max(performance.now() + REST_MS, this.#free);
    this.#free = start + SLICE_MS + REST_MS;
    // Never a negative delay (Deno warns): a collection between the two clock reads can pass `start`.
    return new Promise((resolve) => setTimeout(resolve, Math.max(0, start - performance.now())));
  }
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
 * Runs a stepwise generator (one that yields where it may pause) in slices, resting through
 * `turns`: its result, or undefined when `running` said to stop at a pause.
 */
export async function runInSlices<T>(
  steps: Generator<void, T>,
  running: () => boolean,
  turns: SliceTurns,
): Promise<T | undefined> {
  let sliceEnd = performance.now() + SLICE_MS;
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    if (performance.now() < sliceEnd) continue;
    await turns.rest();
    if (!running()) return undefined;
    sliceEnd = performance.now() + SLICE_MS;
  }
}
