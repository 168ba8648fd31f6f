/**
 * One kanban card (spec 002 §2.10): the contact's name and number, the last message, the
 * contact's extra info, a link to the ticket (/tickets/{uuid}) and, for admin and
 * supervisor, spy on the conversation. The card moves by drag and drop, by its 'Mover para…'
 * menu (mouse, touch and keyboard), or with the left and right arrows while it has focus.
 */
import type { DragEvent, KeyboardEvent } from "react";
import { DropdownMenu } from "radix-ui";
import { ArrowRightLeft, Eye, MessageSquareText } from "lucide-react";
import { formatPhone } from "../../domain/phone_mask.ts";
import { t } from "../lib/i18n.ts";
import { messagePreview } from "../lib/format.ts";
import type { TicketItem } from "../tickets/types.ts";
import { extraInfoOf } from "./use_board.ts";

/** A lane as a card's move menu names it. */
export interface LaneChoice {
  id: number;
  name: string;
}

/** Props of KanbanCard. */
export interface KanbanCardProps {
  ticket: TicketItem;
  /** The lane this copy of the card sits in. */
  laneId: number;
  /** Every lane, in board order (the move menu and the arrow keys). */
  lanes: LaneChoice[];
  hintId: string;
  onMove: (ticketId: number, from: number, to: number, byKeyboard: boolean) => void;
  onDragStart: (ticketId: number, from: number) => void;
  onDragEnd: () => void;
  /** Opens the spy dialog; absent when the viewer may not spy. */
  onSpy?: (ticket: TicketItem) => void;
}

/** The drag payload's type: a ticket id and the lane it leaves. */
export const CARD_MIME = "application/x-balcao-kanban-card";

/** One card; see the module doc. */
export function KanbanCard({ ticket, laneId, lanes, hintId, onMove, onDragStart, onDragEnd, onSpy }: KanbanCardProps) {
  const name = ticket.contact?.name ?? "";
  const info = extraInfoOf(ticket).filter((i) => i.name.trim() || i.value.trim());
  const here = lanes.findIndex((l) => l.id === laneId);

  function keyDown(event: KeyboardEvent<HTMLElement>) {
    if (event.target !== event.currentTarget) return;
    const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    const next = lanes[here + step];
    if (step === 0 || !next) return;
    event.preventDefault();
    onMove(ticket.id, laneId, next.id, true);
  }

  function dragStart(event: DragEvent<HTMLElement>) {
    event.dataTransfer.setData(CARD_MIME, JSON.stringify({ id: ticket.id, from: laneId }));
    event.dataTransfer.setData("text/plain", `#${ticket.id} ${name}`);
    event.dataTransfer.effectAllowed = "move";
    onDragStart(ticket.id, laneId);
  }

  return (
    <article
      className="kanban-card"
      tabIndex={0}
      draggable
      onDragStart={dragStart}
      onDragEnd={onDragEnd}
      onKeyDown={keyDown}
      aria-label={`${name} #${ticket.id}`}
      aria-describedby={hintId}
      data-card-id={ticket.id}
      data-testid="kanban-card"
    >
      <header className="kanban-card-head">
        <span className="kanban-card-name">{name}</span>
        <span className="kanban-card-id">#{ticket.id}</span>
      </header>
      <p className="kanban-card-number">{formatPhone(ticket.contact?.number)}</p>
      <p className="kanban-card-message">
        <MessageSquareText size={14} aria-hidden="true" />
        <span>{ticket.lastMessage ? messagePreview(ticket.lastMessage) : t("kanban.noMessage")}</span>
      </p>
      {info.length > 0 && (
        <dl className="kanban-card-info">
          {info.map((i, n) => (
            <div key={n}>
              <dt>{i.name}</dt>
              <dd>{i.value}</dd>
            </div>
          ))}
        </dl>
      )}
      <footer className="kanban-card-actions">
        <a className="btn btn-small" href={`/tickets/${ticket.uuid}`} aria-label={t("kanban.openTicket", { id: ticket.id })}>
          {t("kanban.openTicket", { id: ticket.id })}
        </a>
        {onSpy && (
          <button type="button" className="icon-btn" aria-label={t("kanban.spy")} title={t("kanban.spy")} onClick={() => onSpy(ticket)} data-testid="kanban-spy">
            <Eye size={16} aria-hidden="true" />
          </button>
        )}
        <DropdownMenu.Root>
          <DropdownMenu.Trigger className="icon-btn" aria-label={t("kanban.moveTo")} title={t("kanban.moveTo")} data-testid="kanban-move">
            <ArrowRightLeft size={16} aria-hidden="true" />
          </DropdownMenu.Trigger>
          <DropdownMenu.Portal>
            <DropdownMenu.Content className="menu-popup" align="end">
              <DropdownMenu.Label className="menu-popup-label">{t("kanban.moveTo")}</DropdownMenu.Label>
              {lanes.filter((l) => l.id !== laneId).map((l) => (
                <DropdownMenu.Item key={l.id} className="menu-popup-item" onSelect={() => onMove(ticket.id, laneId, l.id, true)}>
                  {t("kanban.moveToLane", { lane: l.name })}
                </DropdownMenu.Item>
              ))}
            </DropdownMenu.Content>
          </DropdownMenu.Portal>
        </DropdownMenu.Root>
      </footer>
    </article>
  );
}
