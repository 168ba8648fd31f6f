/** `ScopedCollection.derive`: a view built once per change of the records, rebuilt after one. */
import assert from "node:assert/strict";
import { defineCollection } from "./actor.ts";
import { withSystem } from "../_runtime/testing.ts";

interface Tag {
  id: number;
  name: string;
}
const tags = defineCollection<Tag>({ name: "derive_test_tag" });

Deno.test("derive() keeps its view until the records change, then builds it again", async () => {
  await withSystem(async ({ system }) => {
    const scope = tags.in(system, 1);
    let builds = 0;
    const names = () =>
      scope.derive("names", (records) => {
        builds++;
        return [...records.values()].map((t) => t.name).sort();
      });
    assert.deepEqual(await names(), []);
    const first = await scope.create((id) => ({ id, name: "vip" }));
    const seen = await names();
    assert.deepEqual(seen, ["vip"]);
    assert.equal(await names(), seen, "the same view, not a copy");
    assert.equal(builds, 2);
    await scope.update(first.id, (t) => ({ ...t, name: "gold" }), () => new Error("gone"));
    assert.deepEqual(await names(), ["gold"]);
    await scope.remove(first.id, () => new Error("gone"));
    assert.deepEqual(await names(), []);
    assert.equal(builds, 4);
    // A failed change leaves the view as it was.
    await assert.rejects(scope.update(99, (t) => t, () => new Error("gone")));
    await names();
    assert.equal(builds, 4);
  });
});
