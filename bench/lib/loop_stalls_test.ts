import assert from "node:assert/strict";
import { describeStalls, parseLoopStalls } from "./loop_stalls.ts";

Deno.test("parseLoopStalls reads each stall line among other output; describeStalls sums a window", () => {
  const text = `{"port":1}\nloop-stall 31.5 at 1200\n[1:0x1] 1300 ms: Scavenge 1 (2) -> 1 (2) MB, 1.0 / 0.0 ms\nloop-stall 120.0 at 1900\nloop-stall 40.0 at 5000\n`;
  const stalls = parseLoopStalls(text);
  assert.deepEqual(stalls, [{ ms: 31.5, at: 1200 }, { ms: 120, at: 1900 }, { ms: 40, at: 5000 }]);
  assert.equal(describeStalls(stalls, 1000, 2000), "loop stalls 2, max 120.0 ms, total 151.5 ms");
  assert.equal(describeStalls(stalls, 0, 100), "loop stalls 0, max 0.0 ms, total 0.0 ms");
});
