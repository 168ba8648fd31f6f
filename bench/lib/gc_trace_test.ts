import assert from "node:assert/strict";
import { gcBetween, parseGcTrace } from "./gc_trace.ts";

const TRACE = [
  `{"port":1234}`,
  `[20484:0x5602df684000]       62 ms: Scavenge 3.3 (4.4) -> 3.1 (5.4) MB, pooled: 0.0 MB, 2.69 / 0.00 ms (average mu = 1.000, current mu = 1.000) allocation failure; `,
  `[20500:0x564eb92c0000]     1027 ms: Mark-Compact 3.3 (4.4) -> 2.9 (4.6) MB, pooled: 0.0 MB, 6.20 / 0.00 ms (average mu = 0.753, current mu = 0.753) allocation failure; GC in old space requested`,
  `[15777:0x55fff8820000]     1800 ms: Incremental Mark-Compact 264.8 (379.0) -> 176.8 (339.2) MB, pooled: 39.8 MB, 20.10 / 0.00 ms (+ 113.3 ms in 353 steps since start of marking, biggest step 7.6 ms, walltime since start of marking 2345 ms) (average mu = 0.9, current mu = 0.9) finalize incremental marking via stack guard; GC in old space requested`,
  `[20500:0x564eb92c0000]     1500 ms: Scavenge 5.9 (8.8) -> 5.7 (10.0) MB, 0.40 / 0.00 ms (average mu = 1.000) task;`,
  "some log line",
].join("\n");

Deno.test("parseGcTrace reads the time, kind and main-thread pause of each trace line, with or without the pooled field", () => {
  assert.deepEqual(parseGcTrace(TRACE), [
    { at: 62, kind: "Scavenge", ms: 2.69, markingMs: 0, biggestStepMs: 0 },
    { at: 1027, kind: "Mark-Compact", ms: 6.2, markingMs: 0, biggestStepMs: 0 },
    { at: 1800, kind: "Incremental Mark-Compact", ms: 20.1, markingMs: 113.3, biggestStepMs: 7.6 },
    { at: 1500, kind: "Scavenge", ms: 0.4, markingMs: 0, biggestStepMs: 0 },
  ]);
});

Deno.test("gcBetween sums the pauses that start inside the window and counts the non-scavenges as major", () => {
  const s = gcBetween(parseGcTrace(TRACE), 1000, 2000);
  assert.equal(s.count, 3);
  assert.equal(s.major, 2);
  assert.equal(Math.round(s.totalMs * 100), 2670);
  assert.equal(s.maxMs, 20.1);
  assert.equal(s.markingMs, 113.3);
  assert.equal(s.biggestStepMs, 7.6);
  assert.equal(gcBetween(parseGcTrace(TRACE), 0, 10).count, 0);
});
