/** Unit tests of the stepwise merge sort (merge_sort.ts). */
import assert from "node:assert/strict";
import { runToEnd, sortedPositions } from "./merge_sort.ts";
import { seededRandom } from "./testing.ts";

Deno.test("sortedPositions() orders like a stable native sort, at every size around its runs, and yields on long sorts", () => {
  const random = seededRandom(5);
  for (const n of [0, 1, 2, 15, 16, 17, 31, 33, 1000, 40_000]) {
    // Few distinct keys, so stability shows: equal keys keep their positions' order.
    const keys = Array.from({ length: n }, () => Math.floor(random() * 50));
    const expected = Array.from({ length: n }, (_, i) => i).sort((a, b) => keys[a] - keys[b]);
    const steps = sortedPositions(n, (a, b) => keys[a] - keys[b]);
    let pauses = 0;
    let next = steps.next();
    while (!next.done) {
      pauses++;
      next = steps.next();
    }
    assert.deepEqual([...next.value], expected, `n = ${n}`);
    if (n >= 40_000) assert.ok(pauses > 10, `a sort of ${n} paused ${pauses} times`);
  }
});

Deno.test("runToEnd() gives the generator's result", () => {
  assert.deepEqual([...runToEnd(sortedPositions(3, (a, b) => b - a))], [2, 1, 0]);
});
