/**
 * Drives `total` calls through `workers` concurrent workers and records each call's latency:
 * the load loop the benchmarks share.
 *
 * Without `rate` it is a closed loop (each worker starts its next call when the last one is
 * answered): it measures capacity, and its latency is mostly queueing behind the other calls
 * in flight (Little's law: latency = in flight / throughput). With `rate` it is an open loop
 * at that many calls per second, as wrk2 does: call k is due at start + k/rate and its latency
 * counts from then, so a call that waited for a free worker or a stalled server is charged
 * for the wait (no coordinated omission). That is latency *at* a throughput, the way the
 * issues state their targets; `workers` then only caps what may be in flight.
 *
 * The first `uncounted` calls are driven but not measured: an open loop's calibration, as
 * wrk2 leaves out its first 10 s. The benches run an open loop right after a closed loop
 * that saturated both processes, and what that leaves running (a collection finishing,
 * code being recompiled) landed on the first calls of 4 of 7 open-loop cells in one run of
 * bench/inbox.ts: 150–240 calls late by up to 35 ms, most of a cell's 1% tail.
 */

/** What a drive measured. */
export interface Driven {
  /** Latency of each counted call in ms, sorted ascending. */
  latencies: Float64Array;
  /** Wall time of the whole drive, in seconds. */
  seconds: number;
  /**
   * An open loop's latencies again, in the order the calls were due (`lateWindows`, below,
   * says when a tail happened).
   */
  inOrder?: Float64Array;
}

/**
 * Runs the drive; `call(k, worker)` performs call k on worker `worker`. The latencies are
 * those of calls `uncounted` to `total - 1`; `seconds` is the whole drive's.
 */
export async function drive(
  total: number,
  workers: number,
  call: (k: number, worker: number) => Promise<void>,
  rate?: number,
  uncounted = 0,
): Promise<Driven> {
  const { latencies, seconds } = rate ? await openLoop(total, workers, call, rate) : await closedLoop(total, workers, call);
  const counted = latencies.subarray(uncounted);
  return { latencies: counted.slice().sort(), seconds, inOrder: rate ? counted : undefined };
}

/**
 * The windows of `windowMs` (by due time, from the first counted call) in which more than 1 %
 * of an open loop's calls took over `overMs`: when its tail happened, to set beside a
 * collector's or a disk's log (bench/ingest.ts prints them).
 */
export function lateWindows(inOrder: Float64Array, rate: number, overMs: number, windowMs = 100): string[] {
  const size = Math.max(1, Math.round((rate * windowMs) / 1000));
  const out: string[] = [];
  for (let at = 0; at < inOrder.length; at += size) {
    const window = inOrder.slice(at, at + size).sort();
    const over = window.length - window.findIndex((ms) => ms > overMs);
    if (window.at(-1)! <= overMs || over * 100 <= window.length) continue;
    const p50 = window[window.length >> 1];
    out.push(`${((at / rate)).toFixed(1)} s: p50 ${p50.toFixed(0)}, max ${window.at(-1)!.toFixed(0)} ms, ${over} over ${overMs}`);
  }
  return out;
}

async function closedLoop(
  total: number,
  workers: number,
  call: (k: number, worker: number) => Promise<void>,
): Promise<Driven> {
  const latencies = new Float64Array(total);
  let issued = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: workers }, async (_, worker) => {
    for (let k = issued++; k < total; k = issued++) {
      const t0 = performance.now();
      await call(k, worker);
      latencies[k] = performance.now() - t0;
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  return { latencies, seconds };
}

/**
 * One pacer starts every call that is due, on a free worker, and arms one timer for the next
 * due time: not a timer per call, since the benches that drive their server in-process
 * (bench/ingest.ts) share its heap, and 10,000 timers a second were a sixth of what survived
 * its young collections.
 */
function openLoop(
  total: number,
  workers: number,
  call: (k: number, worker: number) => Promise<void>,
  rate: number,
): Promise<Driven> {
  const latencies = new Float64Array(total);
  const free = Array.from({ length: workers }, (_, w) => workers - 1 - w);
  const started = performance.now();
  const dueOf = (k: number) => started + (k / rate) * 1000;
  const { promise, resolve, reject } = Promise.withResolvers<Driven>();
  if (total === 0) resolve({ latencies, seconds: 0 });
  let next = 0;
  let done = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const pump = () => {
    timer = undefined;
    const now = performance.now();
    while (next < total && free.length > 0 && dueOf(next) <= now) {
      const k = next++;
      const worker = free.pop()!;
      call(k, worker).then(() => {
        latencies[k] = performance.now() - dueOf(k);
        free.push(worker);
        if (++done === total) {
          resolve({ latencies, seconds: (performance.now() - started) / 1000 });
        } else if (timer === undefined) pump();
      }, reject);
    }
    // With every worker busy, the next completion pumps; otherwise wake at the next due time.
    if (next < total && free.length > 0 && timer === undefined) {
      timer = setTimeout(pump, Math.max(0, dueOf(next) - performance.now()));
    }
  };
  pump();
  return promise;
}

/** The `q` quantile (0–1) of sorted latencies. */
export function quantile(sorted: Float64Array, q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}
