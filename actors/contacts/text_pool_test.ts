import assert from "node:assert/strict";
import { seededRandom } from "../_runtime/testing.ts";
import { CHUNK, compareKeysIn, TextPool } from "./text_pool.ts";

Deno.test("TextPool answers what a map of strings would, packed and loose, through sets and deletes", () => {
  const random = seededRandom(5);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
  // Short and long parts, a stray separator and a control character inside a text.
  const parts = ["ana", "bruno", "élida", "zé", "a\u0002b", "", "5511900", "x".repeat(40), "ana ana"];
  const text = () => `${pick(parts)} ${pick(parts)}\u0001${pick(parts)}\u0001${pick(parts)}`;
  const n = CHUNK * 2 + 37; // a last chunk that is not full
  const ids = Array.from({ length: n }, (_, i) => 1 + i * 2 + (i % 3)); // not dense, not in chunk order
  const reference = new Map<number, string>();
  const pool = new TextPool(10);
  for (let from = 0; from < n; from += CHUNK) {
    const stepIds = ids.slice(from, from + CHUNK);
    const stepTexts = stepIds.map(() => text());
    stepIds.forEach((id, i) => reference.set(id, stepTexts[i]));
    pool.pack(stepIds, stepTexts);
  }
  const check = () => {
    for (let id = 0; id < 4 * n; id++) assert.equal(pool.get(id), reference.get(id), `text of ${id}`);
    assert.deepEqual([...pool.entries()], [...reference].sort((a, b) => a[0] - b[0]));
    for (const needles of [["ana"], ["a\u0002"], ["\u0002"], ["ana ana", "zé"], ["\u0001zé"], ["é"], ["nope"], ["x".repeat(41)]]) {
      const expected = [...reference].filter(([, t]) => needles.some((s) => t.includes(s))).map(([id]) => id);
      const found: number[] = [];
      pool.visitMatching(needles, (id) => found.push(id));
      assert.deepEqual(found.sort((a, b) => a - b), expected.sort((a, b) => a - b), JSON.stringify(needles));
      const marks = pool.matching(needles);
      assert.deepEqual([...marks.keys()].filter((id) => marks[id] === 1), expected);
    }
  };
  check();
  for (let step = 0; step < 600; step++) {
    const id = 1 + Math.floor(random() * 3 * n); // packed ids, and new ones past them
    if (random() < 0.5) {
      const t = text();
      pool.set(id, t);
      reference.set(id, t);
    } else {
      pool.delete(id);
      reference.delete(id);
    }
  }
  check();
});

Deno.test("TextPool.compareKeysAt() orders packed texts by their keys as the strings would", () => {
  const keys = ["", "a", "ab", "abc", "b", "ab\u0002", "Ab", "é"];
  const texts = keys.map((k, i) => `${k}\u0001${i}\u0001`);
  const pool = new TextPool();
  pool.pack(texts.map((_, i) => i + 1), texts);
  const sign = (x: number) => Math.sign(x);
  for (let p = 0; p < keys.length; p++) {
    for (let q = 0; q < keys.length; q++) {
      const expected = keys[p] < keys[q] ? -1 : keys[p] > keys[q] ? 1 : 0;
      assert.equal(sign(pool.compareKeysAt(p, q)), expected, `${JSON.stringify(keys[p])} vs ${JSON.stringify(keys[q])}`);
      assert.equal(sign(compareKeysIn(texts[p], 0, texts[q], 0)), expected);
    }
  }
});
