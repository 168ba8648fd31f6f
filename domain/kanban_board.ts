/**
 * The kanban board's shape (spec 002 §2.10): one lane per kanban tag in the order GET
 * /tags/kanban gives, plus a first lane for the tickets that carry no kanban tag; each lane
 * sums its cards' lead values (lead_value.ts). A ticket with two kanban tags (set through
 * POST /tags/sync) shows in both lanes, as the tags say. Pure: the page and its tests share it.
 */
import { type ExtraInfoEntry, laneLeadValue } from "./lead_value.ts";

/** The lane id of the tickets without a kanban tag (tag ids start at 1). */
export const UNTAGGED_LANE = 0;

/** A kanban tag as a lane shows it. */
export interface LaneTag {
  id: number;
  name: string;
  color: string;
}

/** What the board reads of a ticket (its contact's extra info through `extraInfoOf`). */
export interface BoardCard {
  id: number;
  tags: ReadonlyArray<{ id: number }>;
}

/** One lane: its tag (null for the untagged lane), its cards and their lead value. */
export interface BoardLane<C extends BoardCard> {
  id: number;
  tag: LaneTag | null;
  cards: C[];
  leadValue: number;
}

/** The lanes of `cards` (in their given order) under the kanban tags `lanes`. */
export function boardLanes<C extends BoardCard>(
  lanes: readonly LaneTag[],
  cards: readonly C[],
  extraInfoOf: (card: C) => readonly ExtraInfoEntry[] | null | undefined,
): BoardLane<C>[] {
  const byTag = new Map<number, C[]>(lanes.map((tag) => [tag.id, []]));
  const untagged: C[] = [];
  for (const card of cards) {
    let placed = false;
    for (const { id } of card.tags) {
      const lane = byTag.get(id);
      if (lane && !lane.includes(card)) {
        lane.push(card);
        placed = true;
      }
    }
    if (!placed) untagged.push(card);
  }
  const lane = (tag: LaneTag | null, laneCards: C[]): BoardLane<C> => ({
    id: tag?.id ?? UNTAGGED_LANE,
    tag,
    cards: laneCards,
    leadValue: laneLeadValue(laneCards.map(extraInfoOf)),
  });
  return [lane(null, untagged), ...lanes.map((tag) => lane(tag, byTag.get(tag.id)!))];
}

/**
 * A ticket's tags after its card moves to lane `to`: what DELETE /ticket-tags then PUT
 * /ticket-tags/{to} leave (every kanban tag off, plain tags kept, `to` added last).
 */
export function tagsAfterMove<T extends { id: number }>(
  tags: readonly T[],
  kanbanIds: ReadonlySet<number>,
  to: T | null,
): T[] {
  const kept = tags.filter((tag) => !kanbanIds.has(tag.id));
  return to ? [...kept, to] : kept;
}

/** The lane ids a ticket's tags put it in (the untagged lane when none is a lane). */
export function lanesOf(tags: ReadonlyArray<{ id: number }>, kanbanIds: ReadonlySet<number>): number[] {
  const ids = tags.map((t) => t.id).filter((id) => kanbanIds.has(id));
  return ids.length ? ids : [UNTAGGED_LANE];
}
