/**
 * The lanes side by side (spec 002 §2.10), scrolling sideways inside their frame (one lane
 * per screen width on a phone, snapping). Each lane shows its tag's colour and name, its card
 * count and its lead value; it is the drop target of a dragged card. After a keyboard move
 * the focus follows the card into its new lane.
 */
import { type CSSProperties, type DragEvent, useEffect, useId, useRef, useState } from "react";
import type { BoardLane } from "../../domain/kanban_board.ts";
import { currentLang, t } from "../lib/i18n.ts";
import type { TicketItem } from "../tickets/types.ts";
import { CARD_MIME, KanbanCard, type LaneChoice } from "./KanbanCard.tsx";

/** Props of KanbanBoard. */
export interface KanbanBoardProps {
  lanes: BoardLane<TicketItem>[];
  onMove: (ticketId: number, to: number) => void;
  onSpy?: (ticket: TicketItem) => void;
}

const LOCALES = { pt: "pt-BR", en: "en-US", es: "es" } as const;

/** A lead value in reais, in the reader's language. */
export function formatMoney(value: number): string {
  return new Intl.NumberFormat(LOCALES[currentLang()], { style: "currency", currency: "BRL" }).format(value);
}

/** The board; see the module doc. */
export function KanbanBoard({ lanes, onMove, onSpy }: KanbanBoardProps) {
  const hintId = useId();
  const [dragging, setDragging] = useState<{ id: number; from: number } | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const refocus = useRef<{ id: number; lane: number } | null>(null);
  const board = useRef<HTMLDivElement>(null);
  const choices: LaneChoice[] = lanes.map((l) => ({ id: l.id, name: l.tag?.name ?? t("kanban.untagged") }));

  useEffect(() => {
    const target = refocus.current;
    if (!target) return;
    const card = board.current?.querySelector<HTMLElement>(`[data-lane-id="${target.lane}"] [data-card-id="${target.id}"]`);
    if (!card) return;
    refocus.current = null;
    card.focus();
    card.scrollIntoView({ block: "nearest", inline: "nearest" });
  });

  function move(ticketId: number, from: number, to: number, byKeyboard: boolean) {
    if (from === to) return;
    refocus.current = byKeyboard ? { id: ticketId, lane: to } : null;
    onMove(ticketId, to);
  }

  function dragOver(event: DragEvent<HTMLElement>, laneId: number) {
    if (!event.dataTransfer.types.includes(CARD_MIME)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "move";
    if (over !== laneId) setOver(laneId);
  }

  function drop(event: DragEvent<HTMLElement>, laneId: number) {
    event.preventDefault();
    setOver(null);
    setDragging(null);
    try {
      const { id, from } = JSON.parse(event.dataTransfer.getData(CARD_MIME)) as { id: number; from: number };
      if (Number.isInteger(id) && Number.isInteger(from)) move(id, from, laneId, false);
    } catch { /* not one of our cards */ }
  }

  return (
    <div className="kanban-board" ref={board} data-dragging={dragging ? "" : undefined} data-testid="kanban-board">
      <p id={hintId} className="sr-only">{t("kanban.cardHint")}</p>
      {lanes.map((lane) => {
        const name = lane.tag?.name ?? t("kanban.untagged");
        const headingId = `${hintId}-lane-${lane.id}`;
        return (
          <section
            key={lane.id}
            className="kanban-lane"
            aria-labelledby={headingId}
            data-lane-id={lane.id}
            data-over={over === lane.id && dragging?.from !== lane.id ? "" : undefined}
            onDragOver={(e) => dragOver(e, lane.id)}
            onDragLeave={(e) => {
              if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOver((o) => (o === lane.id ? null : o));
            }}
            onDrop={(e) => drop(e, lane.id)}
            style={{ "--lane-color": lane.tag?.color ?? "var(--muted)" } as CSSProperties}
            data-testid="kanban-lane"
          >
            <header className="kanban-lane-head">
              <h2 id={headingId} className="kanban-lane-title">
                <span className="kanban-lane-dot" aria-hidden="true" />
                {name}
                <span className="kanban-lane-count" aria-label={t("kanban.cards", { count: lane.cards.length })}>{lane.cards.length}</span>
              </h2>
              <p className="kanban-lane-value" data-testid="kanban-lead-value">{t("kanban.leadValue", { value: formatMoney(lane.leadValue) })}</p>
            </header>
            <ul className="kanban-cards" aria-labelledby={headingId}>
              {lane.cards.map((ticket) => (
                <li key={ticket.id}>
                  <KanbanCard
                    ticket={ticket}
                    laneId={lane.id}
                    lanes={choices}
                    hintId={hintId}
                    onMove={move}
                    onDragStart={(id, from) => setDragging({ id, from })}
                    onDragEnd={() => {
                      setDragging(null);
                      setOver(null);
                    }}
                    onSpy={onSpy}
                  />
                </li>
              ))}
              {lane.cards.length === 0 && <li className="kanban-empty">{t("kanban.emptyLane")}</li>}
            </ul>
          </section>
        );
      })}
    </div>
  );
}
