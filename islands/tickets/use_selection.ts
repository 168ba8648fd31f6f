/**
 * The list's selection mode for bulk actions (spec 000 §4: "Bulk actions apply the same
 * changes to the selected tickets"): on or off, and the ids picked. The selection is cleared
 * when the mode ends and whenever `scope` (the list shown) changes.
 */
import { useCallback, useEffect, useState } from "react";

/** What the list and the bulk bar need of the selection. */
export interface Selection {
  active: boolean;
  ids: ReadonlySet<number>;
  start(): void;
  stop(): void;
  toggle(id: number): void;
  /** Selects exactly `ids` (select all), or none when every one of them is selected already. */
  toggleAll(ids: number[]): void;
  clear(): void;
}

/** Selection state for the list identified by `scope`. */
export function useSelection(scope: string): Selection {
  const [active, setActive] = useState(false);
  const [ids, setIds] = useState<ReadonlySet<number>>(new Set());
  useEffect(() => setIds(new Set()), [scope]);
  const toggle = useCallback((id: number) => {
    setIds((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  }, []);
  const toggleAll = useCallback((all: number[]) => {
    setIds((current) => (all.length > 0 && all.every((id) => current.has(id)) ? new Set() : new Set(all)));
  }, []);
  const clear = useCallback(() => setIds(new Set()), []);
  const start = useCallback(() => setActive(true), []);
  const stop = useCallback(() => {
    setActive(false);
    setIds(new Set());
  }, []);
  return { active, ids, start, stop, toggle, toggleAll, clear };
}
