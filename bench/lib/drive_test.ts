import assert from "node:assert/strict";
import { drive, lateWindows } from "./drive.ts";

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

Deno.test("drive() open loop paces calls at the rate and never runs a worker twice at once", async () => {
  const busy = new Set<number>();
  const startedAt: number[] = [];
  const t0 = performance.now();
  const { latencies, seconds } = await drive(100, 8, async (k, worker) => {
    assert.ok(!busy.has(worker), `worker ${worker} got two calls at once`);
    busy.add(worker);
    startedAt[k] = performance.now() - t0;
    await sleep(2);
    busy.delete(worker);
  }, 500);
  assert.equal(latencies.length, 100);
  assert.ok(seconds >= 0.19, `100 calls at 500/s took ${seconds} s`);
  for (let k = 0; k < 100; k++) assert.ok(startedAt[k] >= k * 2 - 1, `call ${k} started early at ${startedAt[k]} ms`);
});

Deno.test("drive() open loop charges a call for waiting on a busy worker (no coordinated omission)", async () => {
  // One worker, 10 ms calls, 1,000 calls/s offered: call k waits behind k earlier ones.
  const { latencies } = await drive(20, 1, () => sleep(10), 1000);
  assert.ok(latencies[19] >= 150, `worst latency ${latencies[19]} ms should include the wait`);
});

Deno.test("drive() closed loop runs every call once with at most `workers` in flight", async () => {
  let inFlight = 0;
  let most = 0;
  const seen = new Set<number>();
  const { latencies } = await drive(50, 4, async (k) => {
    seen.add(k);
    most = Math.max(most, ++inFlight);
    await sleep(1);
    inFlight--;
  });
  assert.equal(seen.size, 50);
  assert.equal(most, 4);
  assert.equal(latencies.length, 50);
});

Deno.test("drive() leaves the uncounted first calls out of the latencies", async () => {
  // Calls 0–4 take 60 ms, the rest 1 ms; only calls 5–19 are measured.
  const slow = (k: number) => sleep(k < 5 ? 60 : 1);
  const { latencies } = await drive(20, 20, (k) => slow(k), 1000, 5);
  assert.equal(latencies.length, 15);
  assert.ok(latencies[14] < 50, `worst counted latency ${latencies[14]} ms includes an uncounted call`);
  const all = await drive(20, 20, (k) => slow(k), 1000);
  assert.ok(all.latencies[19] >= 60, "without uncounted calls the slow ones are measured");
});

Deno.test("lateWindows() names the windows where more than 1 % of calls were late, by due time", () => {
  // 1,000 calls/s for 1 s: 100 calls a window; calls 300–349 late (one window), 3 of 600–699 (3 %), 1 of 800–899 (1 %).
  const inOrder = new Float64Array(1000).fill(5);
  for (let k = 300; k < 350; k++) inOrder[k] = 80;
  for (const k of [610, 620, 630]) inOrder[k] = 60;
  inOrder[850] = 500;
  assert.deepEqual(lateWindows(inOrder, 1000, 50), [
    "0.3 s: p50 80, max 80 ms, 50 over 50",
    "0.6 s: p50 5, max 60 ms, 3 over 50",
  ]);
  assert.deepEqual(lateWindows(new Float64Array(1000).fill(5), 1000, 50), []);
});
