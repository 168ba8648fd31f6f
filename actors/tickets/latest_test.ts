import assert from "node:assert/strict";
import type { TicketLatest } from "../../domain/ticket.ts";
import { decodeLatest, LatestWriter } from "./latest.ts";

const sample = (seq: number, lastMessage: string, extra: Partial<TicketLatest> = {}): TicketLatest => ({
  seq,
  lastMessage,
  updatedAt: 1_764_460_800_123 + seq,
  latestCreatedAt: 1_764_460_800_000 + seq,
  unreadMessages: seq % 7,
  lastFromMe: seq % 2 === 0,
  ...extra,
});

Deno.test("LatestWriter's bytes read back as the fields they were written from", () => {
  const writer = new LatestWriter();
  const cases = [
    sample(1, "Olá, gostaria de saber o status do meu pedido"),
    sample(2, ""),
    sample(3, "emoji 🎉 e acentuação: ção, ñ, ü", { latestCreatedAt: null }),
    sample(4, "x".repeat(5000), { unreadMessages: 123_456 }),
  ];
  const written = cases.map((c) => writer.encode(c));
  // Views written earlier keep their bytes after later ones.
  cases.forEach((c, i) => assert.deepEqual(decodeLatest(written[i]), c));
});

Deno.test("LatestWriter fills slab after slab without overwriting a view it gave", () => {
  const writer = new LatestWriter();
  const cases = Array.from({ length: 3000 }, (_, i) => sample(i, `mensagem ${i} `.repeat(1 + (i % 40))));
  const written = cases.map((c) => writer.encode(c));
  cases.forEach((c, i) => assert.deepEqual(decodeLatest(written[i]), c, `value ${i}`));
  // A preview larger than a slab gets a slab of its own.
  const huge = sample(9, "é".repeat(40_000));
  assert.deepEqual(decodeLatest(writer.encode(huge)), huge);
});

Deno.test("decodeLatest reads an older store's object and refuses other values", () => {
  const old = sample(5, "antes");
  assert.deepEqual(decodeLatest(old), old);
  assert.equal(decodeLatest({ seq: "5" }), undefined);
  assert.equal(decodeLatest(null), undefined);
  assert.equal(decodeLatest(new Uint8Array(10)), undefined, "too short");
  const other = new LatestWriter().encode(old).slice();
  other[0] = 9;
  assert.equal(decodeLatest(other), undefined, "an unknown layout version");
});
