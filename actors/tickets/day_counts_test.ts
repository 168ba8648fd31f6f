import assert from "node:assert/strict";
import { seededRandom } from "../_runtime/testing.ts";
import { DAY_MS, DayCounts } from "./day_counts.ts";

/** The counts as sorted plain rows, whatever the keys are. */
const rows = (d: DayCounts) =>
  [...d.days].flatMap(([day, combos]) => [...combos.values()].map((c) => `${day}:${c.flags},${c.user},${c.queue},${c.whatsapp}=${c.n}`)).sort();

Deno.test("DayCounts counts like a string-keyed model, small ids as numbers and large or odd ones as strings", () => {
  const next = seededRandom(23);
  const counts = new DayCounts();
  const model = new Map<string, number>();
  const pick = (small: number) => {
    const r = next();
    return r < 0.05 ? 70_000 + Math.floor(next() * 200_000) : r < 0.08 ? -1 : r < 0.09 ? 1.5 : Math.floor(next() * small);
  };
  const live: [number, number, number, number, number][] = [];
  for (let step = 0; step < 20_000; step++) {
    if (live.length && next() < 0.4) {
      const [c] = live.splice(Math.floor(next() * live.length), 1);
      counts.count(c[0], c[1], c[2], c[3], c[4], -1);
      const key = `${Math.floor(c[0] / DAY_MS)}:${c[1]},${c[2]},${c[3]},${c[4]}`;
      model.set(key, model.get(key)! - 1);
      continue;
    }
    const c: [number, number, number, number, number] = [Math.floor(next() * 20) * DAY_MS + 5, Math.floor(next() * 8), pick(5), pick(4), pick(3)];
    live.push(c);
    counts.count(c[0], c[1], c[2], c[3], c[4], 1);
    const key = `${Math.floor(c[0] / DAY_MS)}:${c[1]},${c[2]},${c[3]},${c[4]}`;
    model.set(key, (model.get(key) ?? 0) + 1);
  }
  counts.count(99 * DAY_MS, 1, 1, 1, 1, -1); // out of a day never counted: nothing
  const expected = [...model].filter(([, n]) => n > 0).map(([k, n]) => `${k}=${n}`).sort();
  assert.deepEqual(rows(counts), expected);
  for (const combos of counts.days.values()) assert.ok(combos.size > 0);
});
