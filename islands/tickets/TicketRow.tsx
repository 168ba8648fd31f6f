/**
 * One ticket in a list (spec 000 §2): avatar (opens the full photo), name, channel icon,
 * queue tag or 'SEM FILA', tags, unread badge, 20-character preview, time, last-interaction
 * label, Accept and Close on pending tickets, spy (managers) and mark-as-unread icons. Where
 * the setting viewppw lets a plain user preview waiting tickets, a pending row has a preview
 * icon instead of the spy: the same read-only dialog, unread count untouched.
 */
import { memo, useState } from "react";
import { Check, Eye, MailWarning, X } from "lucide-react";
import { badgeCount, lastInteraction, listTime, messagePreview } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import { ChannelIcon } from "./ChannelIcon.tsx";
import { ContactPhotoDialog } from "./ContactPhotoDialog.tsx";
import { initials } from "./initials.ts";
import type { TicketItem } from "./types.ts";
import { textColorOn } from "../../domain/text_color.ts";

export { initials };

/** Props of TicketRow. */
export interface TicketRowProps {
  ticket: TicketItem;
  selected: boolean;
  canSpy: boolean;
  /** Whether a pending row offers the preview (domain/visibility.ts canPreviewPending). */
  canPreview: boolean;
  /** Re-render tick for the last-interaction label (changes every 60 s). */
  tick: number;
  onOpen: (ticket: TicketItem, spy?: boolean) => void;
  onAccept: (ticket: TicketItem) => void;
  onClosePending: (ticket: TicketItem) => void;
  onMarkUnread: (ticket: TicketItem) => void;
  /** Set in selection mode: the row shows a checkbox (bulk actions). */
  check?: { checked: boolean; onToggle: (id: number) => void };
}

function TicketRowImpl({ ticket, selected, canSpy, canPreview, onOpen, onAccept, onClosePending, onMarkUnread, check }: TicketRowProps) {
  const [photo, setPhoto] = useState(false);
  const name = ticket.contact?.name ?? "";
  const last = lastInteraction(ticket.latestCreatedAt ?? ticket.updatedAt);
  const pending = ticket.status === "pending";
  return (
    <li className="ticket-row" data-selected={selected ? "true" : undefined} data-ticket-id={ticket.id} data-status={ticket.status}>
      {check && (
        <input
          type="checkbox"
          className="ticket-check"
          checked={check.checked}
          onChange={() => check.onToggle(ticket.id)}
          aria-label={t("bulk.pick", { name })}
          data-testid="ticket-check"
        />
      )}
      {/* Named by its text rather than aria-label, so the initials it shows are part of its name (WCAG 2.5.3). */}
      <button type="button" className="avatar" onClick={() => setPhoto(true)}>
        <span className="sr-only">{t("tickets.avatar")}</span>
        {ticket.contact?.profilePicUrl ? <img src={ticket.contact.profilePicUrl} alt="" /> : <span>{initials(name)}</span>}
      </button>
      <button type="button" className="ticket-main" onClick={() => onOpen(ticket)} aria-current={selected ? "true" : undefined}>
        <span className="ticket-line">
          <ChannelIcon provider={ticket.whatsapp?.provider} />
          <span className="ticket-name">{name}</span>
          <span className="ticket-time">{listTime(ticket.latestCreatedAt ?? ticket.updatedAt)}</span>
        </span>
        <span className="ticket-line">
          <span className="ticket-preview">{messagePreview(ticket.lastMessage)}</span>
          {ticket.unreadMessages > 0 && (
            <span className="badge badge-inline" aria-label={t("tickets.unreadCount", { count: ticket.unreadMessages })}>
              {badgeCount(ticket.unreadMessages)}
            </span>
          )}
        </span>
        <span className="ticket-line ticket-tags">
          {ticket.queue
            ? <span className="chip" style={{ background: ticket.queue.color, color: textColorOn(ticket.queue.color) }}>{ticket.queue.name}</span>
            : <span className="chip chip-neutral">{t("tickets.noQueue")}</span>}
          {ticket.user && ticket.status !== "pending" && <span className="chip chip-outline">{ticket.user.name}</span>}
          {ticket.tags.map((tag) => <span key={tag.id} className="chip" style={{ background: tag.color, color: textColorOn(tag.color) }}>{tag.name}</span>)}
          {last && <span className={`last-interaction tone-${last.tone}`} title={t("tickets.lastInteraction")}>{last.text}</span>}
        </span>
      </button>
      <span className="ticket-actions">
        {pending && (
          <>
            <button type="button" className="btn btn-small btn-success" onClick={() => onAccept(ticket)} data-testid="accept">
              <Check size={14} aria-hidden="true" /> {t("tickets.accept")}
            </button>
            <button type="button" className="btn btn-small" onClick={() => onClosePending(ticket)}>
              <X size={14} aria-hidden="true" /> {t("tickets.close")}
            </button>
          </>
        )}
        {canSpy && (
          <button type="button" className="icon-btn" aria-label={t("tickets.spy")} onClick={() => onOpen(ticket, true)} data-testid="spy">
            <Eye size={16} />
          </button>
        )}
        {!canSpy && canPreview && pending && (
          <button type="button" className="icon-btn" aria-label={t("tickets.preview")} onClick={() => onOpen(ticket, true)} data-testid="preview">
            <Eye size={16} />
          </button>
        )}
        <button type="button" className="icon-btn" aria-label={t("tickets.markUnread")} onClick={() => onMarkUnread(ticket)}>
          <MailWarning size={16} />
        </button>
      </span>
      {photo && <ContactPhotoDialog ticket={ticket} onClose={() => setPhoto(false)} />}
    </li>
  );
}

/** A memoized row: list updates re-render only the rows that changed. */
export const TicketRow = memo(TicketRowImpl);
