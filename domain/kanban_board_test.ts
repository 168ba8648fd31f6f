import assert from "node:assert/strict";
import { boardLanes, lanesOf, tagsAfterMove, UNTAGGED_LANE } from "./kanban_board.ts";

const lead = (value: string) => ({ extraInfo: [{ name: "Valor do Lead", value }] });
const info = (card: { contact: { extraInfo: Array<{ name: string; value: string }> } | null }) => card.contact?.extraInfo;
const LANES = [
  { id: 7, name: "Contato", color: "#111" },
  { id: 3, name: "Proposta", color: "#222" },
];

Deno.test("boardLanes() puts untagged cards first, then one lane per kanban tag with its lead value", () => {
  const cards = [
    { id: 1, tags: [], contact: lead("R$ 100,00") },
    { id: 2, tags: [{ id: 3 }], contact: lead("1.000") },
    { id: 3, tags: [{ id: 99 }], contact: null }, // a plain tag only: untagged lane
    { id: 4, tags: [{ id: 3 }, { id: 7 }], contact: lead("50,5") },
    { id: 5, tags: [{ id: 3 }], contact: lead("abc") },
  ];
  const lanes = boardLanes(LANES, cards, info);
  assert.deepEqual(lanes.map((l) => l.id), [UNTAGGED_LANE, 7, 3]);
  assert.deepEqual(lanes.map((l) => l.cards.map((c) => c.id)), [[1, 3], [4], [2, 4, 5]]);
  assert.deepEqual(lanes.map((l) => l.leadValue), [100, 50.5, 1050.5]);
  assert.equal(lanes[0].tag, null);
  assert.equal(lanes[2].tag?.name, "Proposta");
});

Deno.test("boardLanes() keeps empty lanes", () => {
  const lanes = boardLanes(LANES, [], info);
  assert.deepEqual(lanes.map((l) => [l.id, l.cards.length, l.leadValue]), [[0, 0, 0], [7, 0, 0], [3, 0, 0]]);
});

Deno.test("tagsAfterMove() drops every kanban tag, keeps plain ones and adds the target", () => {
  const kanban = new Set([3, 7]);
  const tags = [{ id: 3 }, { id: 99 }, { id: 7 }];
  assert.deepEqual(tagsAfterMove(tags, kanban, { id: 7 }), [{ id: 99 }, { id: 7 }]);
  assert.deepEqual(tagsAfterMove(tags, kanban, null), [{ id: 99 }]);
});

Deno.test("lanesOf() names the lanes a ticket's tags put it in", () => {
  const kanban = new Set([3, 7]);
  assert.deepEqual(lanesOf([{ id: 99 }], kanban), [UNTAGGED_LANE]);
  assert.deepEqual(lanesOf([{ id: 7 }, { id: 99 }, { id: 3 }], kanban), [7, 3]);
});
