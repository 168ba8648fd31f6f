import assert from "node:assert/strict";
import { DenseIdMap } from "./dense_id_map.ts";

Deno.test("DenseIdMap answers get, has, size, keys, values and entries as a Map by ascending id", () => {
  const map = new DenseIdMap<string>();
  const model = new Map<number, string>();
  for (const id of [40, 3, 17, 3, 5000, 1]) {
    map.set(id, `t${id}`);
    model.set(id, `t${id}`);
  }
  assert.equal(map.delete(17), true);
  assert.equal(map.delete(17), false);
  model.delete(17);
  map.set(2 ** 30, "far"); // not from a counter: left sparse, still found
  model.set(2 ** 30, "far");
  const sorted = [...model].sort((a, b) => a[0] - b[0]);
  assert.equal(map.size, model.size);
  assert.deepEqual([...map], sorted);
  assert.deepEqual([...map.keys()], sorted.map(([id]) => id));
  assert.deepEqual([...map.values()], sorted.map(([, v]) => v));
  assert.equal(map.get(5000), "t5000");
  assert.equal(map.has(17), false);
  assert.equal(map.get(-1), undefined);
});
