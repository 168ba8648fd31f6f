/**
 * The tickets screen island (spec 000 §2 "Tickets screen"): the list pane (one third) and the
 * chat pane (two thirds); under 600 px two tabs, Atendimentos and Ticket. The URL follows the
 * open ticket (/tickets/{uuid}) without reloading; a ticket deleted while open, or one the
 * user may not open, returns to /tickets with the spec's message.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { MessagesSquare } from "lucide-react";
import { ApiError, get } from "./lib/api.ts";
import { t } from "./lib/i18n.ts";
import { type SessionUser, useSession } from "./lib/session.ts";
import { channelName, onChannel, startSocket } from "./lib/socket.ts";
import { showToast, toastError } from "./lib/toast.ts";
import { EmptyState, Skeleton } from "./ui/States.tsx";
import { Chat } from "./tickets/Chat.tsx";
import { HeardContacts, onContactUpdate, withContact } from "./tickets/contact_patch.ts";
import { TicketsManager } from "./tickets/TicketsManager.tsx";
import type { TicketItem } from "./tickets/types.ts";

/** Props of the TicketsPage island. */
export interface TicketsPageProps {
  /** The ticket uuid of /tickets/{uuid}, or null. */
  ticketUuid: string | null;
}

/** Whether the user may open `ticket` by clicking it (spec 000 §4 opening rules). */
function openRefusal(user: SessionUser, ticket: TicketItem): string | null {
  if (ticket.status === "pending") return null;
  const managerProfile = user.profile === "admin" || user.profile === "supervisor";
  if (managerProfile || ticket.isGroup) return null;
  if (ticket.userId !== null && ticket.userId !== user.id) return t("tickets.noPermission");
  if (ticket.queueId !== null && !user.queues.some((q) => q.id === ticket.queueId)) return t("tickets.inUseOtherQueue");
  return null;
}

function Screen({ user, initialUuid }: { user: SessionUser; initialUuid: string | null }) {
  const [current, setCurrent] = useState<{ ticket: TicketItem; spy: boolean } | null>(null);
  const [loadingUuid, setLoadingUuid] = useState(initialUuid);
  const [pane, setPane] = useState<"list" | "chat">(initialUuid ? "chat" : "list");
  /** Contact edits heard live: a ticket fetched before one is shown with it (contact_patch.ts). */
  const heard = useRef(new HeardContacts(withContact));

  // The lists join their status rooms (use_ticket_list.ts), the top bar's bell the notifications.
  useEffect(() => startSocket(user.companyId, user.id), []);

  const show = useCallback((ticket: TicketItem | null, spy = false, push = true) => {
    setCurrent(ticket ? { ticket: heard.current.fresh(ticket), spy } : null);
    setPane(ticket ? "chat" : "list");
    const path = ticket ? `/tickets/${ticket.uuid}` : "/tickets";
    if (push && location.pathname !== path) history.pushState(null, "", path);
  }, []);

  const openUuid = useCallback((uuid: string | null, push: boolean) => {
    if (!uuid) return show(null, false, push);
    setLoadingUuid(uuid);
    get<TicketItem>(`/tickets/u/${encodeURIComponent(uuid)}`).then(
      (ticket) => {
        setLoadingUuid(null);
        show(ticket, false, push);
      },
      (error) => {
        setLoadingUuid(null);
        if (error instanceof ApiError && error.status === 403) showToast("error", t("tickets.inUseOtherQueue"));
        else toastError(error instanceof ApiError ? error.body : error);
        show(null, false, true);
        history.replaceState(null, "", "/tickets");
      },
    );
  }, [show]);

  useEffect(() => {
    if (initialUuid) openUuid(initialUuid, false);
    const onPop = () => openUuid(location.pathname.split("/")[2] ?? null, false);
    addEventListener("popstate", onPop);
    return () => removeEventListener("popstate", onPop);
  }, []);

  useEffect(() => {
    return onChannel(channelName(user.companyId, "ticket"), (data) => {
      const d = data as { action?: string; ticket?: TicketItem; ticketId?: number };
      setCurrent((cur) => {
        if (!cur) return cur;
        if (d.action === "update" && d.ticket?.id === cur.ticket.id) return { ...cur, ticket: heard.current.fresh(d.ticket) };
        if (d.action === "delete" && d.ticketId === cur.ticket.id) {
          history.pushState(null, "", "/tickets");
          return null;
        }
        return cur;
      });
    });
  }, [user.companyId]);

  // A contact renamed or given a photo meanwhile shows in the conversation's header at once,
  // and stays when the conversation's first page answers with the ticket as it was.
  useEffect(() => onContactUpdate(user.companyId, (contact) => {
    heard.current.hear(contact);
    setCurrent((cur) => {
      if (!cur) return cur;
      const ticket = withContact(cur.ticket, contact);
      return ticket === cur.ticket ? cur : { ...cur, ticket };
    });
  }), [user.companyId]);

  function onOpen(ticket: TicketItem, spy = false) {
    if (spy) return show(ticket, true);
    if (ticket.status === "pending") return;
    const refusal = openRefusal(user, ticket);
    if (refusal) return showToast("error", refusal);
    show(ticket);
  }

  return (
    <div className="tickets-page" data-pane={pane}>
      <div className="pane-tabs narrow-only" role="tablist">
        <button type="button" role="tab" aria-selected={pane === "list"} onClick={() => setPane("list")}>{t("tickets.paneList")}</button>
        <button type="button" role="tab" aria-selected={pane === "chat"} onClick={() => setPane("chat")}>{t("tickets.paneChat")}</button>
      </div>
      <div className="list-pane">
        <TicketsManager user={user} selectedId={current?.ticket.id ?? null} onOpen={onOpen} />
      </div>
      <div className="chat-pane">
        {current
          ? (
            <Chat
              key={`${current.ticket.id}-${current.spy}`}
              user={user}
              ticket={current.ticket}
              spy={current.spy}
              onTicket={(ticket) => setCurrent((cur) => (cur && cur.ticket.id === ticket.id ? { ...cur, ticket: heard.current.fresh(ticket) } : cur))}
              onBack={() => setPane("list")}
              onDeleted={() => show(null)}
            />
          )
          : loadingUuid
          ? <Skeleton rows={6} />
          : (
            <div className="no-ticket">
              <EmptyState text={t("tickets.noTicketSelected")} icon={<MessagesSquare size={56} aria-hidden="true" />} />
              <button type="button" className="btn narrow-only" onClick={() => setPane("list")}>{t("tickets.selectTicket")}</button>
            </div>
          )}
      </div>
    </div>
  );
}

/** The tickets screen; waits for the session the shell loads. */
export default function TicketsPage({ ticketUuid }: TicketsPageProps) {
  const session = useSession();
  if (session.status !== "ready") {
    return (
      <div className="tickets-page" data-pane="list">
        <div className="list-pane"><Skeleton rows={8} /></div>
        <div className="chat-pane" />
      </div>
    );
  }
  return <Screen user={session.user} initialUuid={ticketUuid} />;
}
