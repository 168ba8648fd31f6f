/**
 * Event-loop stalls of a bench's server process: how long its main thread could not run a
 * 5 ms interval timer. A latency tail is either queueing behind such a stall or slow work in
 * the request itself; this tells which, and with the GC trace (bench/lib/gc_trace.ts) whether
 * the stall was the collector's. The server prints one `loop-stall <ms> at <isolate ms>` line
 * per stall on stdout, where the benches already read its GC trace.
 */

/** One stall: when it ended on the isolate's clock, and how long the loop was held. */
export interface LoopStall {
  at: number;
  ms: number;
}

const TICK_MS = 5;

/**
 * Reports every stall longer than `thresholdMs` (beyond the tick) of this process's loop: by
 * default as a line on stdout (a server process), or to `report` (the load generator, whose
 * own stalls delay the calls it times just as the server's do).
 */
export function watchLoopStalls(
  thresholdMs = 10,
  report = (s: LoopStall) => console.log(`loop-stall ${s.ms.toFixed(1)} at ${s.at.toFixed(0)}`),
): void {
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    const held = now - last - TICK_MS;
    if (held > thresholdMs) report({ at: now, ms: held });
    last = now;
  }, TICK_MS);
  // A watcher never keeps its process alive (the load generator exits when it is done).
  Deno.unrefTimer(timer);
}

const LINE = /^loop-stall ([\d.]+) at (\d+)$/;

/** Every stall line in `text` (other output is skipped). */
export function parseLoopStalls(text: string): LoopStall[] {
  const stalls: LoopStall[] = [];
  for (const line of text.split("\n")) {
    const m = LINE.exec(line.trim());
    if (m) stalls.push({ ms: Number(m[1]), at: Number(m[2]) });
  }
  return stalls;
}

/** `"stalls n, max M ms, total T ms"` for the stalls that ended in [from, to). */
export function describeStalls(stalls: readonly LoopStall[], from: number, to: number): string {
  const inside = stalls.filter((s) => s.at >= from && s.at < to);
  const max = inside.reduce((m, s) => Math.max(m, s.ms), 0);
  const total = inside.reduce((t, s) => t + s.ms, 0);
  return `loop stalls ${inside.length}, max ${max.toFixed(1)} ms, total ${total.toFixed(1)} ms`;
}
