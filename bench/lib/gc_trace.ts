/**
 * Reads V8's `--trace-gc` lines (what a server process started with that flag prints on
 * stdout) so a bench can put the GC pauses of each phase beside that phase's latency tail
 * (issue #23 §2: is a p99 a collector's pause or our own work?).
 *
 * A line reads `[pid:isolate]   1234 ms: Scavenge 3.3 (4.4) -> 3.1 (5.4) MB, pooled: 0.0 MB,
 * 2.69 / 0.00 ms (…)`: the time since the isolate started, the kind, and the pause on the
 * main thread (the first of the two durations). V8 writes through C stdio, which buffers a
 * pipe, so lines arrive late (and are lost if the process dies without exiting): the
 * isolate's own timestamps place each pause, never the arrival time.
 *
 * A major collection's line also says what its incremental marking cost the main thread
 * before that pause: `(+ 113.3 ms in 353 steps since start of marking, biggest step 7.6 ms,
 * …)`. Those steps run inside allocations, bunched when the concurrent markers fall behind
 * (both cores busy): on the inbox's 100k-ticket heap they were 100–200 ms of main thread
 * within a quarter of a second, the open-loop stalls of issues #18 and #23 §2, while the
 * pause itself said 15–20 ms. So the summary counts them too.
 */

/** One stop-the-world pause of the collector. */
export interface GcPause {
  /** Milliseconds since the isolate started. */
  at: number;
  /** `Scavenge`, `Mark-Compact`, `Minor Mark-Sweep`… as V8 names it. */
  kind: string;
  /** Main-thread pause in milliseconds. */
  ms: number;
  /** Main-thread incremental marking before the pause (major collections; 0 otherwise). */
  markingMs: number;
  /** The largest of those marking steps. */
  biggestStepMs: number;
}

const LINE = /\s(\d+(?:\.\d+)?) ms: ([A-Za-z -]+?) [\d.]+ \([\d.]+\) -> [\d.]+ \([\d.]+\) MB,(?: pooled: [\d.]+ MB,)? ([\d.]+) \/ [\d.]+ ms/;
const MARKING = /\(\+ ([\d.]+) ms in \d+ steps since start of marking, biggest step ([\d.]+) ms/;

/** Every pause found in `text` (other output is skipped). */
export function parseGcTrace(text: string): GcPause[] {
  const pauses: GcPause[] = [];
  for (const line of text.split("\n")) {
    const m = LINE.exec(line);
    if (!m) continue;
    const marking = MARKING.exec(line);
    pauses.push({
      at: Number(m[1]),
      kind: m[2],
      ms: Number(m[3]),
      markingMs: marking ? Number(marking[1]) : 0,
      biggestStepMs: marking ? Number(marking[2]) : 0,
    });
  }
  return pauses;
}

/** What the collector cost in a window of the isolate's time. */
export interface GcSummary {
  count: number;
  /** Pauses that were not scavenges (full or incremental-finalising collections). */
  major: number;
  totalMs: number;
  maxMs: number;
  /** Incremental marking on the main thread of the major collections in the window. */
  markingMs: number;
  biggestStepMs: number;
}

/** The pauses that started in [from, to) of the isolate's clock. */
export function gcBetween(pauses: readonly GcPause[], from: number, to: number): GcSummary {
  const summary: GcSummary = { count: 0, major: 0, totalMs: 0, maxMs: 0, markingMs: 0, biggestStepMs: 0 };
  for (const p of pauses) {
    if (p.at < from || p.at >= to) continue;
    summary.count++;
    if (p.kind !== "Scavenge") summary.major++;
    summary.totalMs += p.ms;
    summary.maxMs = Math.max(summary.maxMs, p.ms);
    summary.markingMs += p.markingMs;
    summary.biggestStepMs = Math.max(summary.biggestStepMs, p.biggestStepMs);
  }
  return summary;
}

/** `"n pauses (m major), total T ms, max M ms"` for a bench line. */
export function describeGc(s: GcSummary): string {
  const marking = s.major ? `, + ${s.markingMs.toFixed(1)} ms incremental marking (biggest step ${s.biggestStepMs.toFixed(1)} ms)` : "";
  return `GC ${s.count} pauses (${s.major} major), total ${s.totalMs.toFixed(1)} ms, max ${s.maxMs.toFixed(2)} ms${marking}`;
}
