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
 */

/** What a drive measured. */
export interface Driven {
  /** Latency of each call in ms, sorted ascending. */
  latencies: Float64Array;
  /** Wall time of the whole drive, in seconds. */
  seconds: number;
}

/** Runs the drive; `call(k, worker)` performs call k on worker `worker`. */
export async function drive(
  total: number,
  workers: number,
  call: (k: number, worker: number) => Promise<void>,
  rate?: number,
): Promise<Driven> {
  const latencies = new Float64Array(total);
  let issued = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: workers }, async (_, worker) => {
    for (let k = issued++; k < total; k = issued++) {
      let t0 = performance.now();
      if (rate) {
        const due = started + (k / rate) * 1000;
        if (due > t0) await new Promise((resolve) => setTimeout(resolve, due - t0));
        t0 = due;
      }
      await call(k, worker);
      latencies[k] = performance.now() - t0;
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  return { latencies: latencies.sort(), seconds };
}

/** The `q` quantile (0–1) of sorted latencies. */
export function quantile(sorted: Float64Array, q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}
