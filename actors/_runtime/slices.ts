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
 * The extra pause of upkeep: work nobody waits for (the message index packing its live lists
 * and saving them, search_index.ts; the snapshots of tickets and contacts,
 * record_snapshot.ts), which comes while the system is busy, since what it saves is what the
 * busy system wrote. At 10,000 inbound messages/s the event loop has about
 * a fifth of its time to spare (bench/ingest.ts's open loop), and slices at two thirds of
 * the loop left behind them a backlog that took a few hundred milliseconds to drain: 35 ms of
 * packing held 700–1,000 messages of the next 100 ms over 50 ms. Resting this much longer
 * after each slice keeps upkeep near that spare fifth (issue #34).
 */
export const UPKEEP_REST_MS = 12;

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
  /**
   * When the last slice ended: a granted slice is taken to end `SLICE_MS` after it began
   * (the timers due in one turn of the loop all fire before any of their slices runs), and
   * each `rest()` call ends its caller's slice.
   */
  #lastEnd = -Infinity;

  /**
   * Resolves when the caller may run its next slice: after a rest, and after the slices
   * granted before. A turn whose timer fires less than `REST_MS` after another slice ended
   * waits again: when a turn of the event loop ran long (a collection, a request), several
   * jobs' timers fell due together and ran back to back in the next turn, which then ran
   * long too, and the loop never went idle (see `REST_MS`).
   */
  rest(): Promise<void> {
    const now = performance.now();
    this.#lastEnd = now;
    const start = Math.max(now + REST_MS, this.#free);
    this.#free = start + SLICE_MS + REST_MS;
    return new Promise((resolve) => this.#wake(start, resolve));
  }

  /**
   * `rest()` after a longer pause (`UPKEEP_REST_MS`): for upkeep, which gives way to requests
   * and to the work they wait for. It waits before taking its turn rather than reserving one
   * ahead, so a job that rests the usual way meanwhile is not held behind it.
   */
  async restLonger(): Promise<void> {
    this.#lastEnd = performance.now();
    await new Promise<void>((resolve) => setTimeout(resolve, UPKEEP_REST_MS));
    await this.rest();
  }

  /** Resolves at `at`, or later if a slice ended less than `REST_MS` before then. */
  #wake(at: number, resolve: () => void): void {
    // Never a negative delay (Deno warns): a collection between the two clock reads can pass `at`.
    setTimeout(() => {
      const earliest = this.#lastEnd + REST_MS;
      const now = performance.now();
      if (now >= earliest) {
        this.#lastEnd = now + SLICE_MS;
        return resolve();
      }
      this.#free = Math.max(this.#free, earliest + SLICE_MS + REST_MS);
      this.#wake(earliest, resolve);
    }, Math.max(0, at - performance.now()));
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
