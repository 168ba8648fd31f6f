/**
 * The ticket lists' order (spec 000 §9: "Sort order default DESC; arrival ordering stored
 * locally"): newest first, or oldest first so the customer waiting longest is on top. The
 * choice is this browser's (localStorage), as the spec says, and applies to every list tab.
 */
import { ArrowDownWideNarrow, ArrowUpNarrowWide } from "lucide-react";
import { t } from "../lib/i18n.ts";
import { readLocal, writeLocal } from "../lib/storage.ts";

/** The order of the lists (GET /tickets `order`). */
export type SortOrder = "DESC" | "ASC";

const KEY = "ticketsSortOrder";

/** The stored order; DESC when none is stored. */
export function readSortOrder(): SortOrder {
  return readLocal(KEY, "DESC") === "ASC" ? "ASC" : "DESC";
}

/** Keeps the order for the next visits. */
export function writeSortOrder(order: SortOrder): void {
  writeLocal(KEY, order);
}

/** An icon button that flips the order; its label says the current one. */
export function SortToggle({ order, onChange }: { order: SortOrder; onChange: (order: SortOrder) => void }) {
  const label = t(order === "ASC" ? "inbox.sort.oldest" : "inbox.sort.newest");
  return (
    <button
      type="button"
      className="icon-btn"
      aria-label={label}
      title={label}
      data-testid="sort-order"
      data-order={order}
      onClick={() => onChange(order === "ASC" ? "DESC" : "ASC")}
    >
      {order === "ASC" ? <ArrowUpNarrowWide size={18} aria-hidden="true" /> : <ArrowDownWideNarrow size={18} aria-hidden="true" />}
    </button>
  );
}
