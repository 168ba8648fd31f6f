/**
 * record_snapshot.ts on its own: records of several shapes, some larger than a chunk's share,
 * saved out of id order, come back whole and in id order; marks and newer records are read
 * from KV; a save whose capture came from a reset actor is not kept.
 */
import assert from "node:assert/strict";
import { beginCapture, endSave, markDurable, markLog, openSnapshot, saveDue, saveSnapshot, type SaveSteps, type SnapshotArea } from "./record_snapshot.ts";
import { seededRandom } from "./testing.ts";
import { GroupCommitter } from "./committer.ts";

interface Item {
  id: number;
  text: string;
  tags?: { name: string; value: number }[];
  done?: boolean;
}

const COMPANY = 3;
const area: SnapshotArea<Item> = {
  name: "item",
  recordPrefix: (companyId) => ["item", companyId],
  fromStore: (raw) => raw as Item,
  fromChunk: (item) => item,
};
const go = () => Promise.resolve(true);

function items(count: number): Item[] {
  const random = seededRandom(5);
  return Array.from({ length: count }, (_, n) => {
    const id = count - n; // descending: the save must order them
    const roll = random();
    if (roll < 0.01) return { id, text: "x".repeat(20_000 + Math.floor(random() * 30_000)) };
    if (roll < 0.3) return { id, text: `texto ${id} ção`, tags: [{ name: "a", value: id }], done: roll < 0.15 };
    return { id, text: `item ${id}` };
  });
}

/** Steps of an actor whose state is `snap` and whose records are `records`. */
function steps(snap: ReturnType<typeof fresh>, records: Item[], reset = false): SaveSteps<Item> {
  return {
    capture: () => Promise.resolve(beginCapture(snap, records)),
    token: () => Promise.resolve(reset ? "another load" : snap.token),
    done: (gen) => Promise.resolve(endSave(snap, gen)),
  };
}

const fresh = () => ({ gen: 0, markGen: null as number | null, changes: 0, saving: false, token: "t" });

Deno.test("snapshot: every record of every shape back in id order, big ones in chunks of their own", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const records = items(3000);
    const snap = fresh();
    assert.equal(await saveSnapshot(kv, area, COMPANY, steps(snap, records), go), true);
    assert.equal(snap.gen, 1);
    const { loaded } = await openSnapshot(kv, area, COMPANY);
    assert.ok(loaded);
    assert.deepEqual(loaded.records, records.slice().sort((a, b) => a.id - b.id));
    assert.equal(loaded.replayed, 0);
  } finally {
    kv.close();
  }
});

Deno.test("snapshot: marked records are read from KV (changed or gone; marks appended per commit, keyed by time, by id alone), newer ids too; a reset actor's capture is dropped", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const records = items(500);
    for (const r of records) await kv.set(["item", COMPANY, r.id], r);
    const snap = fresh();
    await saveSnapshot(kv, area, COMPANY, steps(snap, records), go);
    // After the capture: item 7 changes, item 9 is deleted, item 600 is new (a seeder's, no mark).
    const changed = { id: 7, text: "mudou" };
    const committer = new GroupCommitter(kv);
    const mark = markLog(area, COMPANY, snap, 7)!;
    await committer.commit([
      { type: "set", key: ["item", COMPANY, 7], value: changed },
      { type: "append", log: mark.log, logId: mark.logId, id: "7", value: null },
    ]);
    // Item 9's and 11's marks in the shapes stores written before kept ([…, gen, id] and
    // […, gen, at, id]).
    await kv.atomic().delete(["item", COMPANY, 9]).set(["item_mark", COMPANY, snap.markGen!, 9], null).commit();
    const eleven = { id: 11, text: "também" };
    await kv.atomic().set(["item", COMPANY, 11], eleven).set(["item_mark", COMPANY, snap.markGen!, 900, 11], null).commit();
    await kv.set(["item", COMPANY, 600], { id: 600, text: "novo" });
    const { loaded, snap: reopened } = await openSnapshot(kv, area, COMPANY);
    assert.ok(loaded);
    const expected = records.filter((r) => r.id !== 9).map((r) => r.id === 7 ? changed : r.id === 11 ? eleven : r)
      .sort((a, b) => a.id - b.id);
    assert.deepEqual(loaded.records, [...expected, { id: 600, text: "novo" }]);
    assert.equal(loaded.replayed, 4);
    assert.equal(reopened.gen, 1);
    assert.equal(reopened.markGen, 2, "a loaded state marks above its head");

    // A capture from a state that was reset since: nothing is saved, the head stays at 1.
    const other = { ...reopened };
    assert.equal(await saveSnapshot(kv, area, COMPANY, steps(other, records, true), go), false);
    assert.equal((await openSnapshot(kv, area, COMPANY)).loaded?.gen, 1);
  } finally {
    kv.close();
  }
});

Deno.test("snapshot marks: a record whose mark of the generation is durable is not marked again; a capture starts over", () => {
  const snap: ReturnType<typeof fresh> & { marked?: { gen: number; bits: Uint8Array } } = fresh();
  assert.equal(markLog(area, COMPANY, snap, 7)?.log ?? null, null, "no snapshot yet: no marks");
  snap.markGen = 2;
  assert.deepEqual(markLog(area, COMPANY, snap, 7)?.log ?? null, ["item_mark", COMPANY, 2]);
  assert.deepEqual(markLog(area, COMPANY, snap, 7)?.log ?? null, ["item_mark", COMPANY, 2], "not durable yet: marked again");
  markDurable(snap, 2, 7);
  assert.equal(markLog(area, COMPANY, snap, 7)?.log ?? null, null);
  assert.deepEqual(markLog(area, COMPANY, snap, 8)?.log ?? null, ["item_mark", COMPANY, 2]);
  markDurable(snap, 2, 100_000); // beyond the first bits: they grow
  assert.equal(markLog(area, COMPANY, snap, 100_000)?.log ?? null, null);
  // Counted toward the next save: the change before any capture, and each mark written (7
  // twice, since its first mark was not durable yet), not the changes a durable mark covers.
  assert.equal(snap.changes, 4);

  // A capture moves marks to generation 3: a record's mark of 2 says nothing about it.
  snap.gen = 2;
  beginCapture(snap, []);
  assert.equal(snap.markGen, 3);
  assert.deepEqual(markLog(area, COMPANY, snap, 7)?.log ?? null, ["item_mark", COMPANY, 3]);
  markDurable(snap, 2, 7); // a commit of generation 2 that settles after the capture
  assert.deepEqual(markLog(area, COMPANY, snap, 7)?.log ?? null, ["item_mark", COMPANY, 3]);
  markDurable(snap, 3, 7);
  assert.equal(markLog(area, COMPANY, snap, 7)?.log ?? null, null);
});

Deno.test("snapshot saves: many changes to a few records never make a save due; as many records changed do", () => {
  // 100,000 records saved as generation 1, a save due from 5,000 records changed (a twentieth).
  const snap: ReturnType<typeof fresh> & { marked?: { gen: number; bits: Uint8Array } } = { ...fresh(), gen: 1, markGen: 1 };
  const change = (id: number) => {
    if (markLog(area, COMPANY, snap, id)) markDurable(snap, 1, id);
  };
  // A burst: 200,000 changes to 1,000 conversations, each mark durable once written.
  for (let n = 0; n < 200_000; n++) change(1 + (n % 1000));
  assert.equal(snap.changes, 1000);
  assert.equal(saveDue(snap, 100_000, 1000), false);
  for (let id = 1001; id <= 5000; id++) change(id);
  assert.equal(saveDue(snap, 100_000, 1000), true);
});
