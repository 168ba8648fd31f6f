import assert from "node:assert/strict";
import { UuidIndex } from "./uuid_index.ts";

Deno.test("UuidIndex finds every id by its record's uuid through growth, deletes and uuid changes", () => {
  const records = new Map<number, string>();
  const index = new UuidIndex((id) => records.get(id));
  let seed = 5;
  const pick = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  const uuid = () => crypto.randomUUID();
  for (let step = 0; step < 20_000; step++) {
    const id = 1 + pick(3000);
    const old = records.get(id);
    if (old !== undefined && pick(3) === 0) {
      records.delete(id);
      index.delete(old, id);
    } else if (old !== undefined) {
      const fresh = uuid(); // the ticket index's put: the record changes first, then the entry
      records.set(id, fresh);
      index.delete(old, id);
      index.set(fresh, id);
    } else {
      const fresh = uuid();
      records.set(id, fresh);
      index.set(fresh, id);
    }
  }
  assert.equal(index.size, records.size);
  for (const [id, u] of records) assert.equal(index.get(u), id);
  assert.equal(index.get(uuid()), undefined);
  assert.deepEqual([...index].sort((a, b) => a[1] - b[1]), [...records].map(([id, u]) => [u, id]).sort((a, b) => (a[1] as number) - (b[1] as number)));
});
