/**
 * The service panel (spec 000 §2, admin and supervisor): an 'Aguardando' column of pending
 * tickets, then one column per user with their open tickets. A card shows the contact, the
 * queue, the last message and its time, a link to the conversation, and the actions: return
 * to queue and close for open tickets, transfer for both (the inbox's own transfer and
 * resolve dialogs), close for pending ones. Columns follow `company-{id}-ticket` live; the
 * server's counts are refetched 500 ms after a burst of events (spec 000 §9 debounce).
 */
import { type ReactNode, useEffect, useRef, useState } from "react";
import { ArrowLeftRight, CheckCircle2, ExternalLink, Undo2 } from "lucide-react";
import { get } from "./lib/api.ts";
import { listTime, messagePreview } from "./lib/format.ts";
import { t } from "./lib/i18n.ts";
import type { SessionUser } from "./lib/session.ts";
import { channelName, onChannel, startSocket } from "./lib/socket.ts";
import { showToast } from "./lib/toast.ts";
import { AdminPage, type AdminPageProps, IconButton, useViewer } from "./ui/AdminPage.tsx";
import { EmptyState } from "./ui/States.tsx";
import { ResolveDialog, TransferDialog } from "./tickets/dialogs.tsx";
import { closePending, resolveTicket, returnTicket, transferTicket } from "./tickets/actions.ts";
import type { TicketItem } from "./tickets/types.ts";
import { type PanelColumn, type PanelData, placeTicket, removeTicket } from "./service_panel/state.ts";
import { textColorOn } from "../domain/text_color.ts";

/** Props of the ServicePanelPage island. */
export type ServicePanelPageProps = AdminPageProps<PanelData>;

const EMPTY: PanelData = { users: [], pending: { tickets: [], count: 0 }, limit: 50 };

/** The service panel page. */
export default function ServicePanelPage({ initial, viewer: serverViewer }: ServicePanelPageProps) {
  const viewer = useViewer(serverViewer);
  const [data, setData] = useState<PanelData>(initial ?? EMPTY);
  const [dialog, setDialog] = useState<{ kind: "transfer" | "resolve"; ticket: TicketItem } | null>(null);
  const reloadTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const reload = () => get<PanelData>("/service-panel").then(setData, () => {});
  useEffect(() => {
    if (!initial) reload();
  }, []);

  useEffect(() => {
    if (!viewer) return;
    startSocket(viewer.companyId, viewer.id);
    const later = () => {
      clearTimeout(reloadTimer.current);
      reloadTimer.current = setTimeout(reload, 500);
    };
    const offs = [
      onChannel(channelName(viewer.companyId, "ticket"), (event) => {
        const d = event as { action?: string; ticket?: TicketItem; ticketId?: number };
        if (d.action === "update" && d.ticket) setData((old) => placeTicket(old, d.ticket!));
        else if (d.action === "delete" && d.ticketId) setData((old) => removeTicket(old, d.ticketId!));
        later();
      }),
      onChannel("resync", reload),
    ];
    return () => {
      clearTimeout(reloadTimer.current);
      offs.forEach((off) => off());
    };
  }, [viewer?.id, viewer?.companyId]);

  const placed = (ticket: TicketItem | null, text: string) => {
    if (!ticket) return;
    setData((old) => placeTicket(old, ticket));
    showToast("success", text);
  };

  return (
    <AdminPage title={t("panel.title")} testId="service-panel">
      <div className="panel-board" role="list" aria-label={t("panel.columns")}>
        <Column title={t("panel.waiting")} column={data.pending} testId="panel-waiting" waiting>
          {(ticket) => (
            <>
              <IconButton label={t("tickets.transfer")} onClick={() => setDialog({ kind: "transfer", ticket })}><ArrowLeftRight size={16} /></IconButton>
              <IconButton label={t("tickets.close")} onClick={async () => viewer && placed(await closePending(ticket, viewer.id), t("panel.closed"))}><CheckCircle2 size={16} /></IconButton>
            </>
          )}
        </Column>
        {data.users.map((user) => (
          <Column key={user.id} title={user.name} online={user.online} column={user} testId={`panel-user-${user.id}`}>
            {(ticket) => (
              <>
                <IconButton label={t("tickets.return")} onClick={async () => placed(await returnTicket(ticket), t("panel.returned"))}><Undo2 size={16} /></IconButton>
                <IconButton label={t("tickets.transfer")} onClick={() => setDialog({ kind: "transfer", ticket })}><ArrowLeftRight size={16} /></IconButton>
                <IconButton label={t("tickets.resolve")} onClick={() => setDialog({ kind: "resolve", ticket })}><CheckCircle2 size={16} /></IconButton>
              </>
            )}
          </Column>
        ))}
      </div>
      {viewer && dialog?.kind === "transfer" && (
        <TransferDialog
          open
          user={viewer as SessionUser}
          onOpenChange={() => setDialog(null)}
          onTransfer={async (queueId, userId) => placed(await transferTicket(dialog.ticket, queueId, userId), t("panel.transferred"))}
        />
      )}
      {viewer && dialog?.kind === "resolve" && (
        <ResolveDialog
          open
          user={viewer as SessionUser}
          onOpenChange={() => setDialog(null)}
          onResolve={async (farewell, ratingId) => placed(await resolveTicket(dialog.ticket, viewer.id, { farewell, ratingId }), t("panel.closed"))}
        />
      )}
    </AdminPage>
  );
}

/** One column: its header (name, presence, count) and its cards with their actions. */
function Column({ title, column, online, waiting, testId, children }: {
  title: string;
  column: PanelColumn;
  online?: boolean;
  waiting?: boolean;
  testId: string;
  children: (ticket: TicketItem) => ReactNode;
}) {
  const hidden = column.count - column.tickets.length;
  return (
    <section className={waiting ? "panel-column panel-waiting" : "panel-column"} role="listitem" aria-label={title} data-testid={testId}>
      <header className="panel-column-head">
        {online !== undefined && (
          <span className={online ? "presence presence-on" : "presence"} role="img" aria-label={t(online ? "panel.online" : "panel.offline")} />
        )}
        <h2 className="panel-column-title">{title}</h2>
        <span className="badge" aria-label={String(column.count)}>{column.count}</span>
      </header>
      <div className="panel-cards">
        {column.tickets.length === 0 && <EmptyState text={t("panel.empty")} />}
        {column.tickets.map((ticket) => (
          <article key={ticket.id} className="panel-card" data-testid="panel-card" data-ticket-id={ticket.id}>
            <div className="panel-card-top">
              <a className="panel-card-name" href={`/tickets/${ticket.uuid}`} aria-label={t("panel.openTicket", { name: ticket.contact?.name ?? "" })}>
                {ticket.contact?.name ?? `#${ticket.id}`}
                <ExternalLink size={12} aria-hidden="true" />
              </a>
              <time className="panel-card-time" suppressHydrationWarning>{listTime(ticket.updatedAt)}</time>
            </div>
            <div className="panel-card-meta">
              <span className="chip" style={{ background: ticket.queue?.color ?? "var(--surface-3)", color: ticket.queue ? textColorOn(ticket.queue.color) : "var(--text)" }}>
                {ticket.queue?.name ?? t("tickets.noQueue")}
              </span>
              <span className="panel-card-preview">{messagePreview(ticket.lastMessage)}</span>
            </div>
            <div className="panel-card-actions">{children(ticket)}</div>
          </article>
        ))}
        {hidden > 0 && <p className="muted panel-more">{t("panel.more", { count: hidden })}</p>}
      </div>
    </section>
  );
}
