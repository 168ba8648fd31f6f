import assert from "node:assert/strict";
import { seededRandom } from "../_runtime/testing.ts";
import { IdGroups } from "./id_groups.ts";

/** The groups as plain data, each group's ids in iteration order. */
const plain = (g: IdGroups) => [...g].map(([k, ids]) => [k, [...ids], ids.size] as const).sort((a, b) => a[0] - b[0]);

Deno.test("IdGroups answers as a Map of Sets would after random adds, moves and deletes", () => {
  const groups = new IdGroups();
  const model = new Map<number, Set<number>>();
  let seed = 11;
  const pick = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  const groupOf = new Map<number, number>();
  for (let step = 0; step < 20_000; step++) {
    const id = 1 + pick(3000); // past the first array size: the arrays grow
    const key = pick(50) - 1; // -1 is the columns' NONE
    if (pick(3) === 0) {
      groups.delete(key, id);
      if (groupOf.get(id) === key) {
        model.get(key)!.delete(id);
        if (model.get(key)!.size === 0) model.delete(key);
        groupOf.delete(id);
      }
    } else {
      groups.add(key, id);
      const was = groupOf.get(id);
      if (was !== key) {
        if (was !== undefined) {
          model.get(was)!.delete(id);
          if (model.get(was)!.size === 0) model.delete(was);
        }
        if (!model.has(key)) model.set(key, new Set());
        model.get(key)!.add(id);
        groupOf.set(id, key);
      }
    }
  }
  const expected = [...model].map(([k, s]) => [k, [...s], s.size] as const).sort((a, b) => a[0] - b[0]);
  assert.deepEqual(plain(groups), expected);
  assert.equal(groups.groupCount, model.size);
  for (const [key, set] of model) assert.equal(groups.get(key)?.size, set.size);
});

Deno.test("IdGroups forgets an emptied group and reuses its slot for another key", () => {
  const groups = new IdGroups();
  groups.add(7, 1);
  groups.add(7, 2);
  groups.delete(7, 1);
  groups.delete(7, 1); // twice: nothing
  groups.delete(8, 2); // not in group 8: nothing
  assert.deepEqual([...groups.get(7)!], [2]);
  groups.delete(7, 2);
  assert.equal(groups.get(7), undefined);
  groups.add(9, 2);
  groups.add(9, 5);
  groups.add(9, 2); // already there: order and size kept
  assert.deepEqual([...groups.get(9)!], [2, 5]);
  assert.equal(groups.get(9)!.size, 2);
  assert.deepEqual(plain(groups), [[9, [2, 5], 2]]);
});

Deno.test("IdGroups.addAll builds what add() one by one builds: typed slots, sparse keys, repeats, groups already there", async (t) => {
  const next = seededRandom(31);
  const order = (g: IdGroups) => [...g].map(([k, ids]) => [k, [...ids], ids.size]);
  const cases: [string, (i: number) => number, number, boolean][] = [
    ["small key range", () => Math.floor(next() * 40) - 1, 4000, false],
    ["keys far apart (the Map path)", () => Math.floor(next() * 20) * 1_000_000, 2000, false],
    ["a repeated id", () => Math.floor(next() * 5), 300, true],
  ];
  for (const [name, key, n, repeat] of cases) {
    await t.step(name, () => {
      const ids = Array.from({ length: n }, (_, i) => i + 1).sort(() => next() - 0.5);
      if (repeat) ids.splice(150, 0, ids[10], ids[20]);
      const keys = ids.map(key);
      const bulk = new IdGroups();
      bulk.addAll(keys, ids);
      const single = new IdGroups();
      ids.forEach((id, i) => single.add(keys[i], id));
      assert.deepEqual(order(bulk), order(single));
      bulk.addAll(keys.slice(0, 50).reverse(), ids.slice(0, 50)); // into groups already there
      keys.slice(0, 50).reverse().forEach((k, i) => single.add(k, ids[i]));
      assert.deepEqual(order(bulk), order(single));
    });
  }
});
