/**
 * The ticket messages dialog (spec 000 §2 "Dialogs"), opened by the list's 'spy on
 * conversation' icon (admin, supervisor) or a waiting ticket's preview icon (a plain user
 * where viewppw allows): contact name and ticket number, the assigned user,
 * the conversation read through GET /messages-ghost/{ticketId} (the unread count stays as it
 * was) with its tracking lines, live, read-only, and a close button.
 */
import { t } from "../lib/i18n.ts";
import { Modal } from "../ui/Modal.tsx";
import { MessagesList } from "./MessagesList.tsx";
import type { TicketItem } from "./types.ts";
import { useMessages } from "./use_messages.ts";
import { useTracking } from "./use_tracking.ts";

/** Props of TicketMessagesDialog. */
export interface TicketMessagesDialogProps {
  ticket: TicketItem;
  onClose: () => void;
}

const ignore = () => {};

/** A read-only look at a ticket's conversation. */
export function TicketMessagesDialog({ ticket, onClose }: TicketMessagesDialogProps) {
  const data = useMessages(ticket.companyId, ticket.id, true, ignore);
  const notes = useTracking(ticket.companyId, ticket.id);
  const title = `${ticket.contact?.name ?? ""} ${t("tickets.ticketNumber", { id: ticket.id })}`;
  return (
    <Modal
      open
      wide
      onOpenChange={(open) => !open && onClose()}
      title={title}
      footer={<button type="button" className="btn" onClick={onClose} data-testid="spy-close">{t("common.close")}</button>}
    >
      <div className="spy-dialog" data-testid="spy-dialog">
        <p className="muted">{ticket.user ? t("tickets.assignedTo", { name: ticket.user.name }) : t("spy.unassigned")}</p>
        <MessagesList data={data} notes={notes} readOnly onAction={ignore} />
      </div>
    </Modal>
  );
}
