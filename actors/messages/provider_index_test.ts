import assert from "node:assert/strict";
import { messageId } from "../../domain/message.ts";
import { legacyProviderKey, messageLogKey } from "./keys.ts";
import { holderAmong, type MessageRef, ProviderIndex } from "./provider_index.ts";

/** The message id of message `i` (ticket 1 + i % 7, in time order). */
const idOf = (i: number) => messageId(1 + (i % 7), 1_700_000_000_000 + Math.floor(i / 1000), i % 1000);

/** The candidates of an id, once the index is built. */
async function candidates(index: ProviderIndex, companyId: number, providerId: string): Promise<readonly MessageRef[]> {
  return await index.find(companyId, providerId);
}

Deno.test("ProviderIndex finds every id logged before it was built or added since, and nothing else", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    // 3,000 ids logged before the index exists, 50 in an older store's layout, another company's.
    for (let i = 0; i < 3000; i += 500) {
      const op = kv.atomic();
      for (let j = i; j < i + 500; j++) op.set(messageLogKey(1, idOf(j)), `OLD${j}`);
      op.set(messageLogKey(2, idOf(i)), `OTHER${i}`);
      await op.commit();
    }
    const legacy = kv.atomic();
    for (let j = 0; j < 50; j++) legacy.set(legacyProviderKey(1, `LEGACY${j}`), [1 + ((5000 + j) % 7), idOf(5000 + j)]);
    await legacy.commit();

    const index = new ProviderIndex(kv);
    const during = index.find(1, "OLD0");
    assert.ok(during instanceof Promise, "a lookup waits while the scan runs");
    index.add(1, "DURING", idOf(9000)); // added before its write commits: kept, whatever the scan sees
    assert.deepEqual(await during, [{ ticketId: 1, messageId: idOf(0) }]);
    assert.ok(index.ready(1));
    for (let j = 0; j < 3000; j++) {
      assert.deepEqual(index.find(1, `OLD${j}`), [{ ticketId: 1 + (j % 7), messageId: idOf(j) }], `OLD${j}`);
    }
    for (let j = 0; j < 50; j++) {
      assert.deepEqual(index.find(1, `LEGACY${j}`), [{ ticketId: 1 + ((5000 + j) % 7), messageId: idOf(5000 + j) }]);
    }
    assert.deepEqual(index.find(1, "DURING"), [{ ticketId: 1 + (9000 % 7), messageId: idOf(9000) }]);
    for (let j = 0; j < 10_000; j++) assert.equal((index.find(1, `NEW${j}`) as MessageRef[]).length, 0);
    // Another company's ids are its own index's.
    assert.equal((index.find(1, "OTHER0") as MessageRef[]).length, 0);
    assert.deepEqual(await candidates(index, 2, "OTHER500"), [{ ticketId: 1 + (500 % 7), messageId: idOf(500) }]);
    // The same id added twice for one message is one entry; for two messages, two candidates.
    index.add(1, "DURING", idOf(9000));
    index.add(1, "TWICE", idOf(9001));
    index.add(1, "TWICE", idOf(9002));
    assert.equal((index.find(1, "DURING") as MessageRef[]).length, 1);
    assert.deepEqual((index.find(1, "TWICE") as MessageRef[]).map((r) => r.messageId), [idOf(9001), idOf(9002)]);
    index.drop(1);
    assert.equal(index.ready(1), false);
  } finally {
    kv.close();
  }
});

Deno.test("ProviderIndex grows past its first size without losing an id", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const index = new ProviderIndex(kv);
    index.add(7, "FIRST", idOf(0)); // starts the company's index, and its scan
    await candidates(index, 7, "FIRST");
    const n = 150_000;
    for (let i = 1; i <= n; i++) index.add(7, `ID${i}`, idOf(i));
    for (let i = 1; i <= n; i++) {
      const found = index.find(7, `ID${i}`) as MessageRef[];
      assert.equal(found.length, 1, `ID${i}`);
      assert.equal(found[0].messageId, idOf(i));
    }
    assert.deepEqual(index.find(7, "FIRST"), [{ ticketId: 1, messageId: idOf(0) }]);
    assert.equal((index.find(7, "ID0") as MessageRef[]).length, 0);
  } finally {
    kv.close();
  }
});

Deno.test("holderAmong() confirms a candidate only when its message holds the id", async () => {
  const stored = new Map([["a", "P1"], ["b", "P2"]]);
  // Reads at the message key: `["message", companyId, ticketId, messageId]`.
  const read = (key: Deno.KvKey) => {
    const id = String(key[3]);
    return Promise.resolve(key[1] === 1 && stored.has(id) ? { providerId: stored.get(id)! } : null);
  };
  const ref = (messageId: string) => ({ ticketId: 1, messageId });
  assert.deepEqual(await holderAmong(1, [ref("gone"), ref("a"), ref("b")], "P2", read), ref("b"));
  assert.equal(await holderAmong(1, [ref("a"), ref("gone")], "P3", read), null);
  assert.equal(await holderAmong(1, [], "P1", read), null);
});
