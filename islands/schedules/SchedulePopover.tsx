/**
 * The calendar's tooltip for one schedule (spec 001 §2.19): contact, time, status, message and
 * recurrence, with edit (only while PENDENTE, spec 001 §4) and delete. A Radix popover anchored
 * where the event was clicked: it keeps focus inside, closes on Escape or a click outside, and
 * flips to stay on screen at phone width.
 */
import { Popover } from "radix-ui";
import { Pencil, Trash2 } from "lucide-react";
import { REPEAT_FOREVER } from "../../domain/schedule_recurrence.ts";
import { t } from "../lib/i18n.ts";
import { LocalDateTime } from "../ui/LocalDateTime.tsx";
import type { ScheduleRow } from "./types.ts";

/** Props of SchedulePopover. */
export interface SchedulePopoverProps {
  row: ScheduleRow;
  /** Viewport point the popover points at (below the clicked event). */
  x: number;
  y: number;
  onClose: () => void;
  onEdit: (row: ScheduleRow) => void;
  onDelete: (row: ScheduleRow) => void;
}

/** The popover; see the module doc. */
export function SchedulePopover({ row, x, y, onClose, onEdit, onDelete }: SchedulePopoverProps) {
  const left = row.repeatEvery === null ? 0 : row.repeatEvery - row.repeatCount;
  return (
    <Popover.Root open onOpenChange={(open) => !open && onClose()}>
      <Popover.Anchor asChild>
        <span style={{ position: "fixed", left: x, top: y, width: 0, height: 0 }} aria-hidden="true" />
      </Popover.Anchor>
      <Popover.Portal>
        <Popover.Content className="popover schedule-popover" sideOffset={4} collisionPadding={8} aria-label={t("schedules.details")} data-testid="schedule-popover">
          <header className="schedule-popover-head">
            <strong>{row.contact?.name ?? `#${row.contactId}`}</strong>
            <span className={`chip schedule-status schedule-${row.status.toLowerCase()}`}>{t(`schedules.status.${row.status}`)}</span>
          </header>
          <p className="muted"><LocalDateTime value={row.sendAt} /></p>
          <p className="schedule-popover-body">{row.body}</p>
          {row.mediaName && <p className="muted">📎 {row.mediaName}</p>}
          {row.status === "PENDENTE" && row.repeatEvery !== null && (
            <p className="muted">{row.repeatEvery === REPEAT_FOREVER ? t("schedules.repeatEndless") : t("schedules.repeatLeft", { n: left })}</p>
          )}
          {row.sentAt && (
            <p className="muted">{t("schedules.sentAt", { when: "" })}<LocalDateTime value={row.sentAt} /></p>
          )}
          {row.status === "ERRO" && row.error && <p className="field-error">{row.error}</p>}
          <div className="schedule-popover-actions">
            {row.status === "PENDENTE" && (
              <button type="button" className="btn" onClick={() => onEdit(row)} data-testid="schedule-edit">
                <Pencil size={14} aria-hidden="true" /> {t("schedules.edit")}
              </button>
            )}
            <button type="button" className="btn btn-danger" onClick={() => onDelete(row)} data-testid="schedule-delete">
              <Trash2 size={14} aria-hidden="true" /> {t("common.delete")}
            </button>
          </div>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
