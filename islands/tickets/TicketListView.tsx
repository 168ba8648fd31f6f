/**
 * Renders one list: skeleton while loading, error with retry, a note when a search's results
 * are partial (the server's index is still building), an empty state that says what happens
 * next, rows, and the next page when scrolled within 100 px of the bottom.
 */
import type { UIEvent } from "react";
import { Inbox } from "lucide-react";
import { t } from "../lib/i18n.ts";
import { EmptyState, ErrorState, Skeleton } from "../ui/States.tsx";
import { TicketRow, type TicketRowProps } from "./TicketRow.tsx";
import type { TicketList } from "./use_ticket_list.ts";

/** Props of TicketListView. */
export interface TicketListViewProps extends Omit<TicketRowProps, "ticket" | "selected" | "check"> {
  list: TicketList;
  /** In selection mode: the selected ids and how to toggle one. */
  picking?: { ids: ReadonlySet<number>; toggle: (id: number) => void };
  selectedId: number | null;
  emptyText: string;
  label: string;
}

/** One scrollable ticket list. */
export function TicketListView({ list, selectedId, emptyText, label, picking, ...row }: TicketListViewProps) {
  function onScroll(event: UIEvent<HTMLDivElement>) {
    const el = event.currentTarget;
    if (el.scrollHeight - el.scrollTop - el.clientHeight < 100) list.loadMore();
  }
  return (
    <div className="ticket-list" onScroll={onScroll} aria-label={label} role="region">
      {list.status === "loading" && <Skeleton rows={6} />}
      {list.status === "error" && <ErrorState onRetry={list.reload} />}
      {list.status === "ready" && list.partial && <p className="list-more muted" role="status" data-testid="search-partial">{t("tickets.searchPartial")}</p>}
      {list.status === "ready" && list.tickets.length === 0 && <EmptyState text={emptyText} icon={<Inbox size={40} aria-hidden="true" />} />}
      {list.tickets.length > 0 && (
        <ul className="ticket-rows">
          {list.tickets.map((ticket) => (
            <TicketRow
              key={ticket.id}
              ticket={ticket}
              selected={ticket.id === selectedId}
              check={picking && { checked: picking.ids.has(ticket.id), onToggle: picking.toggle }}
              {...row}
            />
          ))}
        </ul>
      )}
      {list.status === "ready" && list.hasMore && <div className="list-more"><button type="button" className="btn" onClick={list.loadMore}>{t("tickets.loadMore")}</button></div>}
    </div>
  );
}
