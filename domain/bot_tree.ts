/**
 * The bot option tree as the queue dialog edits it (spec 001 §2.15, §4): the flat list of
 * GET /queue-options nested by `parentId`, and the moves and deletes the server makes
 * (siblings renumbered `option` 1..n), applied to the local list so the editor shows the
 * result at once, the same way the server's transaction computes it.
 */
import { placeAt, subtreeIds } from "./queue_option.ts";

/** What the tree needs of an option. */
export interface TreeItem {
  id: number;
  parentId: number | null;
  option: number;
}

/** One node of the nested tree: the option and its children in `option` order. */
export interface TreeNode<T extends TreeItem> {
  item: T;
  children: TreeNode<T>[];
}

const byOption = (a: TreeItem, b: TreeItem) => a.option - b.option || a.id - b.id;

/** The options under `parentId` (null: the roots) in `option` order. */
export function childrenOf<T extends TreeItem>(flat: readonly T[], parentId: number | null): T[] {
  return flat.filter((o) => o.parentId === parentId).sort(byOption);
}

/**
 * Nests `flat` by `parentId`, each level in `option` order. An option whose parent is not in
 * the list (a stale read) is shown as a root rather than hidden.
 */
export function buildTree<T extends TreeItem>(flat: readonly T[]): TreeNode<T>[] {
  const ids = new Set(flat.map((o) => o.id));
  const kids = new Map<number | null, T[]>();
  for (const o of flat) {
    const parent = o.parentId !== null && ids.has(o.parentId) ? o.parentId : null;
    const list = kids.get(parent) ?? [];
    list.push(o);
    kids.set(parent, list);
  }
  const seen = new Set<number>();
  const level = (parent: number | null): TreeNode<T>[] =>
    (kids.get(parent) ?? []).sort(byOption).filter((o) => !seen.has(o.id) && seen.add(o.id))
      .map((item) => ({ item, children: level(item.id) }));
  return level(null);
}

/** `flat` with the records of `ordered` numbered 1..n in that order. */
function withNumbers<T extends TreeItem>(flat: readonly T[], ordered: readonly T[]): T[] {
  const numbers = new Map(ordered.map((o, i) => [o.id, i + 1]));
  return flat.map((o) => {
    const n = numbers.get(o.id);
    return n === undefined || n === o.option ? o : { ...o, option: n };
  });
}

/**
 * The position option `id` takes when moved one place up (-1) or down (+1) among its
 * siblings, or null at the edge (or when it is not in the list).
 */
export function movedPosition<T extends TreeItem>(flat: readonly T[], id: number, delta: -1 | 1): number | null {
  const self = flat.find((o) => o.id === id);
  if (!self) return null;
  const siblings = childrenOf(flat, self.parentId);
  const at = siblings.findIndex((o) => o.id === id) + delta;
  return at < 0 || at >= siblings.length ? null : at + 1;
}

/** `flat` after option `id` moves to 1-based position `at` among its siblings (renumbered 1..n). */
export function moveTo<T extends TreeItem>(flat: readonly T[], id: number, at: number): T[] {
  const self = flat.find((o) => o.id === id);
  if (!self) return [...flat];
  return withNumbers(flat, placeAt(childrenOf(flat, self.parentId), self, at));
}

/** `flat` without option `id` and its descendants, its siblings renumbered 1..n. */
export function removeOption<T extends TreeItem>(flat: readonly T[], id: number): T[] {
  const self = flat.find((o) => o.id === id);
  if (!self) return [...flat];
  const gone = new Set(subtreeIds(flat, id));
  const rest = flat.filter((o) => !gone.has(o.id));
  return withNumbers(rest, childrenOf(rest, self.parentId));
}

/** `flat` with `record` added or replaced (same id). */
export function upsertOption<T extends TreeItem>(flat: readonly T[], record: T): T[] {
  return flat.some((o) => o.id === record.id)
    ? flat.map((o) => (o.id === record.id ? record : o))
    : [...flat, record];
}
