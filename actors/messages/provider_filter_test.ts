import assert from "node:assert/strict";
import { providerKey } from "./keys.ts";
import { ProviderFilter } from "./provider_filter.ts";

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setTimeout(r, 2));
  assert.ok(condition(), "condition never held");
}

Deno.test("ProviderFilter says maybe for every stored or added id, and no for most new ones", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    // 3,000 ids stored before the filter exists, in two companies.
    for (let i = 0; i < 3000; i += 500) {
      const op = kv.atomic();
      for (let j = i; j < i + 500; j++) op.set(providerKey(1, `OLD${j}`), [1, `m${j}`]);
      op.set(providerKey(2, `OTHER${i}`), [1, "m"]);
      await op.commit();
    }
    const filter = new ProviderFilter(kv);
    assert.equal(filter.mayHave(1, "OLD0"), true, "maybe while the scan runs");
    // An id added during the scan is kept, whatever the scan sees.
    filter.add(1, "DURING");
    await until(() => filter.ready(1));
    for (let j = 0; j < 3000; j++) assert.equal(filter.mayHave(1, `OLD${j}`), true, `OLD${j}`);
    assert.equal(filter.mayHave(1, "DURING"), true);
    filter.add(1, "AFTER");
    assert.equal(filter.mayHave(1, "AFTER"), true);

    let falseMaybes = 0;
    for (let j = 0; j < 10_000; j++) if (filter.mayHave(1, `NEW${j}`)) falseMaybes++;
    assert.ok(falseMaybes < 100, `${falseMaybes} of 10,000 new ids were maybes`);
    // Another company's ids are its own filter's.
    assert.equal(filter.mayHave(1, "OTHER0"), false);
    filter.mayHave(2, "x");
    await until(() => filter.ready(2));
    assert.equal(filter.mayHave(2, "OTHER0"), true);
  } finally {
    kv.close();
  }
});

Deno.test("ProviderFilter grows past its capacity without losing an id, and starts on add", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const filter = new ProviderFilter(kv);
    filter.add(7, "FIRST"); // starts the company's filter: the id is pending in its scan
    await until(() => filter.ready(7));
    const ids = Array.from({ length: 150_000 }, (_, i) => `ID${i}`); // past 2 × 65,536
    for (const id of ids) filter.add(7, id);
    assert.equal(filter.mayHave(7, "FIRST"), true);
    for (const id of ids) assert.equal(filter.mayHave(7, id), true, id);
    let falseMaybes = 0;
    for (let j = 0; j < 10_000; j++) if (filter.mayHave(7, `NEW${j}`)) falseMaybes++;
    assert.ok(falseMaybes < 200, `${falseMaybes} of 10,000 new ids were maybes after growing`);
    filter.drop(7);
    assert.equal(filter.ready(7), false);
  } finally {
    kv.close();
  }
});
