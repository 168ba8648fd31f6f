import assert from "node:assert/strict";
import { deserialize } from "node:v8";
import { decodeKey } from "../../server/backup/key_codec.ts";
import { RowBuffer } from "./row_buffer.ts";

/** Writes `value` alone and reads it back with V8's own deserializer. */
function roundTrip(value: unknown): unknown {
  const buffer = new RowBuffer();
  assert.ok(buffer.writeValue(value), `writes ${JSON.stringify(value)}`);
  return deserialize(buffer.take());
}

Deno.test("RowBuffer writes records V8 reads back exactly: strings of one and two bytes, every kind of number, nesting", () => {
  const values: unknown[] = [
    "", "bom dia", "Fábio ação ÿ", "emoji 😀 and 中文", "a\u0000b",
    0, 1, -1, 2 ** 30 - 1, -(2 ** 30), 2 ** 30, -(2 ** 30) - 1, 2 ** 31, 1_764_000_000_000, 1.5, -0, NaN, Infinity, -Infinity,
    true, false, null,
    [], [1, "two", null, [3]],
    {},
    {
      id: "0000001764000000000-15000", ticketId: 15000, body: "preciso ajuda — 😀", fromMe: true, mediaUrl: null,
      tags: [{ id: 1, name: "VIP" }], extra: { nested: { deep: [1.25, false] } }, createdAt: 1_764_000_000_000,
    },
  ];
  for (const value of values) assert.deepStrictEqual(roundTrip(value), value);

  // Several values back to back: each one's bytes start with its own header.
  const buffer = new RowBuffer();
  const starts: number[] = [];
  for (const value of values) {
    starts.push(buffer.length);
    buffer.writeValue(value);
  }
  const bytes = buffer.take();
  starts.push(bytes.length);
  values.forEach((value, i) => assert.deepStrictEqual(deserialize(bytes.subarray(starts[i], starts[i + 1])), value));
});

Deno.test("RowBuffer refuses what it does not write as V8 would, and leaves no bytes of it", () => {
  const buffer = new RowBuffer();
  buffer.writeValue("before");
  const length = buffer.length;
  // deno-lint-ignore no-sparse-arrays
  for (const value of [undefined, new Date(0), new Map(), 10n, [1, , 3], { 0: "index key" }, { a: undefined }, { a: [new Set()] }]) {
    assert.equal(buffer.writeValue(value), false);
    assert.equal(buffer.length, length);
  }
  assert.equal(deserialize(buffer.take()), "before");
});

Deno.test("RowBuffer writes keys as Deno KV encodes them", () => {
  const buffer = new RowBuffer();
  const keys: Deno.KvKey[] = [["message", 2, 15000, "0000001764000000000-15000"], ["s", "ção", "a\u0000b", -7, true], [1n, new Uint8Array([0, 1])]];
  const ends = keys.map((key) => (buffer.appendKey(key), buffer.length));
  const bytes = buffer.take();
  keys.forEach((key, i) => assert.deepEqual(decodeKey(bytes.subarray(i ? ends[i - 1] : 0, ends[i])), key));
});
