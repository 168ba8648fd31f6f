import assert from "node:assert/strict";
import { buildTree, childrenOf, movedPosition, moveTo, removeOption, type TreeItem, upsertOption } from "./bot_tree.ts";

interface Item extends TreeItem {
  title: string;
}

const item = (id: number, parentId: number | null, option: number, title = `o${id}`): Item => ({ id, parentId, option, title });

/** Roots A(1) B(2) C(3); A has children A1(1) A2(2); A1 has A1a(1). */
const FLAT: Item[] = [
  item(3, null, 3, "C"),
  item(1, null, 1, "A"),
  item(2, null, 2, "B"),
  item(11, 1, 2, "A2"),
  item(10, 1, 1, "A1"),
  item(100, 10, 1, "A1a"),
];

const numbered = (list: Item[], parentId: number | null) => childrenOf(list, parentId).map((o) => `${o.option}:${o.title}`);

Deno.test("buildTree() nests by parentId in option order and shows orphans as roots", () => {
  const tree = buildTree([...FLAT, item(7, 999, 1, "orphan")]);
  assert.deepEqual(tree.map((n) => n.item.title), ["A", "orphan", "B", "C"]);
  assert.deepEqual(tree[0].children.map((n) => n.item.title), ["A1", "A2"]);
  assert.deepEqual(tree[0].children[0].children.map((n) => n.item.title), ["A1a"]);
  assert.deepEqual(buildTree([]), []);
});

Deno.test("movedPosition() gives the neighbour's position, null at either edge", () => {
  assert.equal(movedPosition(FLAT, 2, -1), 1);
  assert.equal(movedPosition(FLAT, 2, 1), 3);
  assert.equal(movedPosition(FLAT, 1, -1), null);
  assert.equal(movedPosition(FLAT, 3, 1), null);
  assert.equal(movedPosition(FLAT, 100, 1), null, "an only child cannot move");
  assert.equal(movedPosition(FLAT, 42, 1), null);
});

Deno.test("moveTo() renumbers the siblings 1..n and leaves other levels alone", () => {
  const moved = moveTo(FLAT, 3, 1);
  assert.deepEqual(numbered(moved, null), ["1:C", "2:A", "3:B"]);
  assert.deepEqual(numbered(moved, 1), ["1:A1", "2:A2"]);
  const child = moveTo(FLAT, 11, 1);
  assert.deepEqual(numbered(child, 1), ["1:A2", "2:A1"]);
  assert.deepEqual(numbered(child, null), ["1:A", "2:B", "3:C"]);
  assert.deepEqual(numbered(moveTo(FLAT, 1, 99), null), ["1:B", "2:C", "3:A"], "clamped to the end");
});

Deno.test("removeOption() drops the subtree and renumbers the siblings", () => {
  const left = removeOption(FLAT, 1);
  assert.deepEqual(left.map((o) => o.id).sort((a, b) => a - b), [2, 3]);
  assert.deepEqual(numbered(left, null), ["1:B", "2:C"]);
  const middle = removeOption(FLAT, 10);
  assert.deepEqual(numbered(middle, 1), ["1:A2"]);
  assert.equal(middle.some((o) => o.id === 100), false);
  assert.equal(removeOption(FLAT, 42).length, FLAT.length);
});

Deno.test("upsertOption() replaces by id or appends", () => {
  const renamed = upsertOption(FLAT, item(2, null, 2, "Bê"));
  assert.equal(renamed.find((o) => o.id === 2)?.title, "Bê");
  assert.equal(renamed.length, FLAT.length);
  assert.equal(upsertOption(FLAT, item(5, null, 4)).length, FLAT.length + 1);
});
