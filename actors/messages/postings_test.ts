import assert from "node:assert/strict";
import { FrozenPostings, Postings, PostingsMerge } from "./postings.ts";

function growable(entries: Record<string, number[]>): Map<string, Postings> {
  const out = new Map<string, Postings>();
  for (const [word, ids] of Object.entries(entries)) {
    const p = new Postings();
    for (const id of ids) p.add(id);
    out.set(word, p);
  }
  return out;
}

function lists(frozen: FrozenPostings): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const [word, slot] of frozen.wordSlots()) {
    const ids: number[] = [];
    frozen.visitSlots([slot], (id) => ids.push(id));
    out[word] = ids;
  }
  return out;
}

Deno.test("Postings.add() keeps ids sorted and unique whatever the arrival order", () => {
  const p = new Postings();
  for (const id of [5, 9, 1, 9, 7, 5, 12, 3]) p.add(id);
  assert.deepEqual([...p.ids.slice(0, p.size)], [1, 3, 5, 7, 9, 12]);
  // Past the small form's length the list moves to a typed array, still sorted and unique.
  for (const id of [40, 2, 33, 12, 6, 50, 41, 8, 0]) p.add(id);
  assert.ok(p.ids instanceof Uint32Array);
  assert.deepEqual([...p.ids.slice(0, p.size)], [0, 1, 2, 3, 5, 6, 7, 8, 9, 12, 33, 40, 41, 50]);
});

Deno.test("Postings.of() starts a list at its first id and grows it as add() does", () => {
  const p = Postings.of(7);
  assert.deepEqual([p.size, [...p.ids]], [1, [7]]);
  assert.equal(p.add(7), false);
  for (const id of [3, 11, 7, 1, 20, 15, 9, 4, 30, 2]) p.add(id);
  assert.ok(p.ids instanceof Uint32Array);
  assert.deepEqual([...p.ids.slice(0, p.size)], [1, 2, 3, 4, 7, 9, 11, 15, 20, 30]);
});

Deno.test("FrozenPostings.merge() unites old and added lists in order without duplicates, and has() finds them", () => {
  const first = new FrozenPostings().merge(growable({ casa: [1, 4, 9], boleto: [2] }));
  assert.deepEqual(lists(first), { casa: [1, 4, 9], boleto: [2] });
  const second = first.merge(growable({ casa: [3, 4, 10], pix: [7] }));
  assert.deepEqual(lists(second), { casa: [1, 3, 4, 9, 10], boleto: [2], pix: [7] });
  assert.equal(second.ids.length, 7);
  assert.equal(second.has("casa", 9), true);
  assert.equal(second.has("casa", 2), false);
  assert.equal(second.has("nada", 1), false);
  // The frozen form it came from is unchanged, though it shares its word map with the new one.
  assert.deepEqual(lists(first), { casa: [1, 4, 9], boleto: [2] });
  assert.equal(first.slots, second.slots);
  assert.equal(first.has("pix", 7), false);
  assert.deepEqual(first.slotsContaining("pi"), []);
  assert.deepEqual(second.slotsContaining("pi"), [second.slots.get("pix")]);
  // A third merge from the second keeps every slot and appends only what is new.
  const third = second.merge(growable({ boleto: [2, 5], zap: [1] }));
  assert.deepEqual(lists(third), { casa: [1, 3, 4, 9, 10], boleto: [2, 5], pix: [7], zap: [1] });
  assert.equal(third.slots.get("casa"), first.slots.get("casa"));
  assert.deepEqual(lists(second), { casa: [1, 3, 4, 9, 10], boleto: [2], pix: [7] });
});

Deno.test("PostingsMerge in many small steps, with flipped lists, equals one merge", () => {
  const old = new FrozenPostings().merge(growable({ casa: [1, 4, 9], boleto: [2] }));
  const plain: Record<string, number[]> = { casa: [3, 4, 10], pix: [7] };
  for (let w = 0; w < 100; w++) plain[`palavra${w}`] = [w, w + 5, 200];
  const top = 0xffff_ffff;
  // A build stores `top - id`, meeting ids in descending order, so the stored values ascend.
  const flipped = new Map<string, Postings>();
  for (const [word, ids] of Object.entries(plain)) {
    const p = new Postings();
    for (const id of [...ids].reverse()) p.add(top - id);
    flipped.set(word, p);
  }
  const merge = new PostingsMerge(old, flipped, top);
  let steps = 1;
  let result = merge.step(0);
  while (result === null) {
    result = merge.step(0);
    steps++;
  }
  assert.ok(steps > 5, `${steps} steps`);
  assert.deepEqual(lists(result), lists(old.merge(growable(plain))));
  assert.deepEqual(lists(result).casa, [1, 3, 4, 9, 10]);
});

Deno.test("PostingsMerge copies runs of old lists that gained nothing, in steps, as a merge slot by slot would", () => {
  // 10,000 old words (more than one run of 4,096 slots), a few of which gain ids.
  const first: Record<string, number[]> = {};
  for (let w = 0; w < 10_000; w++) first[`w${w}`] = w % 7 === 0 ? [w, w + 3, w + 9] : [w];
  const old = new FrozenPostings().merge(growable(first));
  const added: Record<string, number[]> = { w0: [1, 2], w4095: [1], w4096: [5000], w9999: [1], novo: [8] };
  const merge = new PostingsMerge(old, growable(added));
  let result = merge.step(0);
  while (result === null) result = merge.step(0);
  const expected: Record<string, number[]> = { ...first };
  for (const [word, ids] of Object.entries(added)) expected[word] = [...new Set([...(first[word] ?? []), ...ids])].sort((a, b) => a - b);
  assert.deepEqual(lists(result), expected);
  assert.equal(result.ids.length, Object.values(expected).reduce((n, ids) => n + ids.length, 0));
  assert.ok(result.has("w4096", 5000) && result.has("w4097", 4097) && !result.has("w4097", 5000));
});

Deno.test("FrozenPostings finds the slots of words containing a needle, their sizes and their ids by binary search", () => {
  const frozen = new FrozenPostings().merge(growable({
    cliente: [1, 2, 3, 5, 8, 13],
    clientes: [21],
    reembolso: [8],
  }));
  const slots = frozen.slotsContaining("cliente");
  assert.equal(slots.length, 2);
  assert.deepEqual(slots.map((s) => frozen.sizeOf(s)).sort(), [1, 6]);
  assert.deepEqual(frozen.slotsContaining("zzz"), []);
  const [reembolso] = frozen.slotsContaining("reembolso");
  assert.ok(frozen.hasIn(reembolso, 8));
  assert.ok(!frozen.hasIn(reembolso, 5));
});

Deno.test("PostingsMerge sizes its output from the pairs it is told (or counts), and a wrong count still merges right", () => {
  const old = new FrozenPostings().merge(growable({ casa: [1, 4, 9], boleto: [2] }));
  const many = Array.from({ length: 39 }, (_, i) => 100 + i);
  const added = growable({ casa: [4], pix: many });
  const expected = { casa: [1, 4, 9], boleto: [2], pix: many };
  // Told or counted, the 40 pairs size the output at once (4 + 40 ids, one a duplicate): the
  // result is that array itself, neither grown by doubling nor copied to a trimmed one.
  for (const merge of [new PostingsMerge(old, added, null, 40), new PostingsMerge(old, added)]) {
    const result = merge.step(Infinity)!;
    assert.deepEqual(lists(result), expected);
    assert.equal(result.ids.length, 43);
    assert.equal(result.ids.buffer.byteLength, 44 * 4);
  }
  // A count too small grows the output; one too large is trimmed.
  for (const told of [0, 1000]) {
    const result = new PostingsMerge(old, added, null, told).step(Infinity)!;
    assert.deepEqual(lists(result), expected);
    assert.equal(result.ids.length, 43);
  }
});

Deno.test("PostingsMerge gives new words their slots as it goes; the old form ignores them, and a merge left half-done is redone right", () => {
  const old = new FrozenPostings().merge(growable({ casa: [1, 4], boleto: [2] }));
  const added: Record<string, number[]> = { casa: [6] };
  for (let w = 0; w < 200; w++) added[`novo${w}`] = [w + 10];
  const abandoned = new PostingsMerge(old, growable(added));
  // Steps until some new words are in the shared map, then the merge is dropped.
  while (![...old.slots.keys()].some((word) => word.startsWith("novo"))) assert.equal(abandoned.step(0), null);
  assert.deepEqual(lists(old), { casa: [1, 4], boleto: [2] });
  assert.equal(old.has("novo0", 10), false);
  assert.deepEqual(old.slotsContaining("novo"), []);
  // Another merge from the same old form (the next freeze) gives the words their slots again.
  const again: Record<string, number[]> = { ...added, boleto: [3] };
  const merge = new PostingsMerge(old, growable(again));
  let result = merge.step(0);
  while (result === null) result = merge.step(0);
  const expected: Record<string, number[]> = { casa: [1, 4, 6], boleto: [2, 3] };
  for (let w = 0; w < 200; w++) expected[`novo${w}`] = [w + 10];
  assert.deepEqual(lists(result), expected);
  assert.equal(result.has("novo199", 209), true);
  assert.equal(result.slotsContaining("novo1").length, 111);
  assert.deepEqual(lists(old), { casa: [1, 4], boleto: [2] });
});
