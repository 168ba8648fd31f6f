/**
 * The chat pane of one ticket (spec 000 §2 "Ticket header", §4): header with contact, ticket
 * number and assignee; reopen for closed, accept for pending; for open tickets resolve,
 * return, transfer, phone link and the options menu (add users to a group ticket for admin
 * or its owner, wallet, opportunities, a schedule dialog when the plan allows, delete when
 * permitted); the messages with the tracking lines; the composer; the contact drawer. A spy
 * view (managers on others' tickets) is read-only.
 */
import { lazy, Suspense, useMemo, useState } from "react";
import { DropdownMenu } from "radix-ui";
import { ArrowLeft, ArrowLeftRight, Check, CircleCheck, EllipsisVertical, Info, Phone, RotateCcw, Search, Undo2 } from "lucide-react";
import { api } from "../lib/api.ts";
import { phoneLink } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import { allowed, manager, planHas, type SessionUser } from "../lib/session.ts";
import { showToast, toastError } from "../lib/toast.ts";
import { acceptTicket, deleteTicket, reopenTicket, resolveTicket, returnTicket, transferTicket } from "./actions.ts";
import { ContactDrawer } from "./ContactDrawer.tsx";
import { GroupUsersDialog } from "./GroupUsersDialog.tsx";
import { OpportunityDialog } from "./OpportunityDialog.tsx";
import { WalletDialog } from "./WalletDialog.tsx";
import { ConfirmDialog, EditMessageDialog, ForwardDialog, ResolveDialog, SendContactDialog, TransferDialog } from "./dialogs.tsx";
import { MessageInput } from "./MessageInput.tsx";
import { CloudWindowBar } from "./CloudWindowBar.tsx";
import { MessageSearch } from "./MessageSearch.tsx";
import { MessagesList } from "./MessagesList.tsx";
import { initials } from "./TicketRow.tsx";
import type { Message, TicketItem } from "./types.ts";
import { useMessages } from "./use_messages.ts";
import { useTracking } from "./use_tracking.ts";

/** Props of Chat. */
export interface ChatProps {
  user: SessionUser;
  ticket: TicketItem;
  spy: boolean;
  onTicket: (ticket: TicketItem) => void;
  onBack: () => void;
  onDeleted: () => void;
}

type DialogName = "transfer" | "resolve" | "delete" | "sendContact" | "groupUsers" | "wallet" | "opportunity" | "schedule" | null;

/** The schedule dialog, loaded on first use: the inbox's first load does not carry it. */
const ScheduleDialog = lazy(() => import("../schedules/ScheduleDialog.tsx").then((m) => ({ default: m.ScheduleDialog })));

/** Header, messages, composer and drawer of the open ticket. */
export function Chat({ user, ticket, spy, onTicket, onBack, onDeleted }: ChatProps) {
  const data = useMessages(user.companyId, ticket.id, spy, onTicket);
  const notes = useTracking(user.companyId, ticket.id);
  const [dialog, setDialog] = useState<DialogName>(null);
  const [drawer, setDrawer] = useState(false);
  const [replyTo, setReplyTo] = useState<Message | null>(null);
  const [editing, setEditing] = useState<Message | null>(null);
  const [forwarding, setForwarding] = useState<Message | null>(null);
  const [deleting, setDeleting] = useState<Message | null>(null);
  const [searching, setSearching] = useState(false);
  const open = ticket.status === "open";
  const readOnly = spy || !open;
  // One object per user and connection, so the memoized bubbles do not re-render for it.
  const cardChat = useMemo(() => ({ user, whatsappId: ticket.whatsappId }), [user, ticket.whatsappId]);

  const apply = (updated: TicketItem | null): void => {
    if (updated) onTicket(updated);
  };
  function onAction(action: "reply" | "edit" | "delete" | "forward", message: Message) {
    if (action === "reply") setReplyTo(message);
    if (action === "edit") setEditing(message);
    if (action === "forward") setForwarding(message);
    if (action === "delete") setDeleting(message);
  }
  async function removeMessage(message: Message) {
    try {
      await api("DELETE", "/messages/delete", { messages: [message.id] });
    } catch (error) {
      toastError((error as { body?: unknown }).body ?? error);
    }
  }

  return (
    <section className="chat" aria-label={ticket.contact?.name ?? ""} data-testid="chat" data-ticket-status={ticket.status}>
      <div className="chat-main">
        <header className="chat-header">
          <button type="button" className="icon-btn narrow-only" aria-label={t("tickets.back")} onClick={onBack}><ArrowLeft size={20} /></button>
          {/* Named by what it shows, after what it opens: a voice user says the contact's name (WCAG 2.5.3). */}
          <button type="button" className="chat-title" onClick={() => setDrawer(!drawer)} aria-expanded={drawer}>
            <span className="sr-only">{t("tickets.contactInfo")}:</span>
            <span className="avatar" aria-hidden="true">{ticket.contact?.profilePicUrl ? <img src={ticket.contact.profilePicUrl} alt="" /> : <span>{initials(ticket.contact?.name)}</span>}</span>
            <span className="chat-title-text">
              <strong>{ticket.contact?.name} <span className="muted">{t("tickets.ticketNumber", { id: ticket.id })}</span></strong>
              <small className="muted">{ticket.user ? t("tickets.assignedTo", { name: ticket.user.name }) : ticket.queue?.name ?? t("tickets.noQueue")}</small>
            </span>
          </button>
          <div className="chat-actions">
            {ticket.status === "closed" && (
              <button type="button" className="btn btn-small" onClick={async () => apply(await reopenTicket(ticket, user.id))} data-testid="reopen">
                <RotateCcw size={16} aria-hidden="true" /> {t("tickets.reopen")}
              </button>
            )}
            {ticket.status === "pending" && (
              <button type="button" className="btn btn-small btn-success" onClick={async () => apply(await acceptTicket(ticket, user.id))} data-testid="header-accept">
                <Check size={16} aria-hidden="true" /> {t("tickets.accept")}
              </button>
            )}
            {open && !spy && (
              <>
                <button type="button" className="icon-btn wide-only" aria-label={t("tickets.searchMessages")} aria-pressed={searching} onClick={() => setSearching(!searching)}>
                  <Search size={18} />
                </button>
                <button type="button" className="btn btn-small" onClick={async () => apply(await returnTicket(ticket))} data-testid="return">
                  <Undo2 size={16} aria-hidden="true" /> <span className="wide-only">{t("tickets.return")}</span>
                </button>
                <button type="button" className="btn btn-small btn-primary" onClick={() => setDialog("resolve")} data-testid="resolve">
                  <CircleCheck size={16} aria-hidden="true" /> <span className="wide-only">{t("tickets.resolve")}</span>
                </button>
                <button type="button" className="icon-btn" aria-label={t("tickets.transfer")} title={t("tickets.transfer")} onClick={() => setDialog("transfer")} data-testid="transfer">
                  <ArrowLeftRight size={18} />
                </button>
                {ticket.contact?.number && !ticket.isGroup && (
                  <a className="icon-btn wide-only" href={phoneLink(ticket.contact.number)} aria-label={t("tickets.phoneLink")}><Phone size={18} /></a>
                )}
              </>
            )}
            <button type="button" className="icon-btn wide-only" aria-label={t("tickets.contactInfo")} onClick={() => setDrawer(!drawer)}><Info size={18} /></button>
            <DropdownMenu.Root>
              <DropdownMenu.Trigger className="icon-btn" aria-label={t("tickets.options")} data-testid="ticket-options"><EllipsisVertical size={18} /></DropdownMenu.Trigger>
              <DropdownMenu.Portal>
                <DropdownMenu.Content className="menu-popup" align="end">
                  {ticket.isGroup && (user.profile === "admin" || ticket.userId === user.id) && (
                    <DropdownMenu.Item className="menu-popup-item" onSelect={() => setDialog("groupUsers")} data-testid="menu-group-users">
                      {t("groupUsers.title")}
                    </DropdownMenu.Item>
                  )}
                  <DropdownMenu.Item className="menu-popup-item" onSelect={() => setDialog("wallet")} data-testid="menu-wallet">{t("tickets.wallet")}</DropdownMenu.Item>
                  <DropdownMenu.Item className="menu-popup-item" onSelect={() => setDialog("opportunity")} data-testid="menu-opportunity">{t("tickets.opportunities")}</DropdownMenu.Item>
                  {planHas(user, "useSchedules") && (
                    <DropdownMenu.Item className="menu-popup-item" onSelect={() => setDialog("schedule")} data-testid="menu-schedule">{t("tickets.schedule")}</DropdownMenu.Item>
                  )}
                  {open && !spy && (
                    <DropdownMenu.Item className="menu-popup-item" onSelect={() => setDialog("sendContact")}>{t("messages.sendContact")}</DropdownMenu.Item>
                  )}
                  {allowed(user, "ticket-options:deleteTicket") && (
                    <DropdownMenu.Item className="menu-popup-item" onSelect={() => setDialog("delete")}>{t("tickets.deleteTicket")}</DropdownMenu.Item>
                  )}
                </DropdownMenu.Content>
              </DropdownMenu.Portal>
            </DropdownMenu.Root>
          </div>
        </header>
        {searching && <MessageSearch ticketId={ticket.id} data={data} />}
        <MessagesList data={data} notes={notes} readOnly={readOnly} onAction={onAction} chat={spy ? undefined : cardChat} />
        {!spy && open && (
          <CloudWindowBar
            ticketId={ticket.id}
            whatsappId={ticket.whatsappId}
            refreshKey={data.messages.findLast((m) => !m.fromMe)?.id ?? ""}
            onSent={data.upsert}
          />
        )}
        {!spy && (
          <MessageInput
            user={user}
            ticketId={ticket.id}
            disabled={!open}
            replyTo={replyTo}
            onCancelReply={() => setReplyTo(null)}
            onSent={data.upsert}
            onStored={(tempId, message) => {
              data.drop(tempId);
              if (message) data.upsert(message);
            }}
          />
        )}
      </div>
      {drawer && <ContactDrawer ticket={ticket} onClose={() => setDrawer(false)} />}
      {dialog === "transfer" && (
        <TransferDialog
          open
          user={user}
          onOpenChange={() => setDialog(null)}
          onTransfer={async (queueId, userId) => {
            const updated = await transferTicket(ticket, queueId, userId);
            if (updated) showToast("success", t("transfer.done", { queue: updated.queue?.name ?? "" }));
            // A plain user loses sight of a ticket moved to another user or to a queue not theirs.
            const gone = updated && !manager(user) && updated.userId !== user.id &&
              (updated.userId !== null || !user.queues.some((q) => q.id === updated.queueId));
            if (gone) onDeleted();
            else apply(updated);
          }}
        />
      )}
      {dialog === "resolve" && (
        <ResolveDialog open user={user} onOpenChange={() => setDialog(null)} onResolve={async (farewell, ratingId) => apply(await resolveTicket(ticket, user.id, { farewell, ratingId }))} />
      )}
      {dialog === "delete" && (
        <ConfirmDialog
          open
          onOpenChange={() => setDialog(null)}
          title={t("tickets.deleteConfirm", { name: ticket.contact?.name ?? "" })}
          text={t("tickets.deleteWarning")}
          onConfirm={async () => (await deleteTicket(ticket)) && onDeleted()}
        />
      )}
      {dialog === "opportunity" && <OpportunityDialog ticket={ticket} onClose={() => setDialog(null)} />}
      {dialog === "wallet" && <WalletDialog user={user} ticket={ticket} onClose={() => setDialog(null)} />}
      {dialog === "schedule" && (
        <Suspense fallback={null}>
          <ScheduleDialog
            user={user}
            schedule={null}
            contact={ticket.contact ? { id: ticket.contact.id, name: ticket.contact.name } : null}
            whatsappId={ticket.whatsappId}
            onClose={() => setDialog(null)}
          />
        </Suspense>
      )}
      {dialog === "groupUsers" && <GroupUsersDialog ticket={ticket} onClose={() => setDialog(null)} />}
      {dialog === "sendContact" && <SendContactDialog open ticketId={ticket.id} onOpenChange={() => setDialog(null)} />}
      {deleting && (
        <ConfirmDialog open onOpenChange={() => setDeleting(null)} title={t("messages.deleteConfirm")} text={deleting.body} onConfirm={() => removeMessage(deleting)} />
      )}
      {editing && <EditMessageDialog open message={editing} onOpenChange={() => setEditing(null)} />}
      {forwarding && <ForwardDialog open message={forwarding} ticket={ticket} onOpenChange={() => setForwarding(null)} />}
    </section>
  );
}
