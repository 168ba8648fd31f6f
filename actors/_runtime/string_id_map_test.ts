/** Unit tests of StringIdMap against a Map through random sets, overwrites and deletes. */
import assert from "node:assert/strict";
import { StringIdMap } from "./string_id_map.ts";
import { seededRandom } from "./testing.ts";

Deno.test("StringIdMap answers as a Map does through random sets, overwrites and deletes, growing from empty", () => {
  const random = seededRandom(9);
  const map = new StringIdMap();
  const reference = new Map<string, number>();
  // Few distinct keys of varied lengths (the empty string and non-ASCII among them), so
  // runs form, collide and are shifted back by deletes.
  const keys = Array.from({ length: 3000 }, (_, i) => i % 97 === 0 ? "" : `${i % 7 === 0 ? "é" : ""}5511${Math.floor(i * 7919 % 100000)}`);
  for (let step = 0; step < 60_000; step++) {
    const key = keys[Math.floor(random() * keys.length)];
    const roll = random();
    if (roll < 0.55) {
      const id = Math.floor(random() * 2 ** 31);
      assert.equal(map.set(key, id), map);
      reference.set(key, id);
    } else if (roll < 0.85) {
      assert.equal(map.delete(key), reference.delete(key), `delete ${key}`);
    } else {
      assert.equal(map.get(key), reference.get(key), `get ${key}`);
      assert.equal(map.has(key), reference.has(key));
    }
    assert.equal(map.size, reference.size);
  }
  for (const key of keys) assert.equal(map.get(key), reference.get(key));
  const sorted = (entries: Iterable<[string, number]>) => [...entries].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  assert.deepEqual(sorted(map), sorted(reference));
  assert.ok(reference.size > 500, `${reference.size} keys held at the end`);
});
