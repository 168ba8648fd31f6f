/**
 * The top bar's bells: tickets with unread messages (visible to admins and supervisors, to
 * others only with setting viewnoti) and the announcements bell (red dot, list, a viewer with
 * Previous / Next and 'Mark all as read').
 */
import { useEffect, useState } from "react";
import { Popover } from "radix-ui";
import { Bell, Megaphone } from "lucide-react";
import { api, get } from "../lib/api.ts";
import { badgeCount, messagePreview } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import type { SessionUser } from "../lib/session.ts";
import { channelName, onChannel } from "../lib/socket.ts";
import { playNotification } from "./sound.ts";

interface UnreadTicket {
  id: number;
  uuid: string;
  unreadMessages: number;
  lastMessage: string;
  contact?: { name: string };
}

/** Bell with the tickets that have unread messages; refetched (debounced 500 ms) on live events. */
export function NotificationsBell({ user }: { user: SessionUser }) {
  const [tickets, setTickets] = useState<UnreadTicket[]>([]);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = () =>
      get<{ tickets: UnreadTicket[] }>("/tickets?withUnreadMessages=true&status=open").then(
        (r) => setTickets((r.tickets ?? []).filter((x) => x.unreadMessages > 0)),
        () => {},
      );
    const later = () => {
      clearTimeout(timer);
      timer = setTimeout(load, 500);
    };
    load();
    const offs = [
      onChannel(channelName(user.companyId, "ticket"), later),
      onChannel(channelName(user.companyId, "appMessage"), (data) => {
        const d = data as { action?: string; message?: { fromMe?: boolean } };
        if (d.action === "create" && d.message && !d.message.fromMe) playNotification();
        later();
      }),
    ];
    return () => {
      clearTimeout(timer);
      offs.forEach((off) => off());
    };
  }, [user.id]);
  return (
    <Popover.Root>
      <Popover.Trigger className="icon-btn topbar-btn" aria-label={t("topbar.notifications")}>
        <Bell size={20} />
        {tickets.length > 0 && <span className="badge" data-testid="notifications-count">{badgeCount(tickets.length)}</span>}
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="popover" align="end" sideOffset={6}>
          {tickets.length === 0 ? <p className="muted">{t("topbar.noNotifications")}</p> : (
            <ul className="popover-list">
              {tickets.map((ticket) => (
                <li key={ticket.id}>
                  <a href={`/tickets/${ticket.uuid}`}>
                    <strong>{ticket.contact?.name}</strong>
                    <span className="muted">{messagePreview(ticket.lastMessage)}</span>
                  </a>
                </li>
              ))}
            </ul>
          )}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

interface Announcement {
  id: number;
  title: string;
  text: string;
  priority: number;
  mediaPath?: string | null;
  mediaName?: string | null;
}

/** Announcements bell: unread announcements of the company, with a simple viewer. */
export function AnnouncementsBell({ user }: { user: SessionUser }) {
  const [items, setItems] = useState<Announcement[]>([]);
  const [index, setIndex] = useState(0);
  useEffect(() => {
    const load = () =>
      get<Announcement[] | { records?: Announcement[] }>(`/announcements/unread/${user.companyId}`).then(
        (r) => setItems(Array.isArray(r) ? r : r.records ?? []),
        () => {},
      );
    load();
    return onChannel("company-announcement", load);
  }, [user.id]);
  const current = items[index];
  async function markAllRead() {
    await Promise.allSettled(items.map((a) => api("POST", `/user-announcements/${a.id}/read`, { userId: user.id, announcementId: a.id })));
    setItems([]);
  }
  return (
    <Popover.Root>
      <Popover.Trigger className="icon-btn topbar-btn" aria-label={t("topbar.announcements")}>
        <Megaphone size={20} />
        {items.length > 0 && <span className="dot" aria-hidden="true" />}
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="popover popover-wide" align="end" sideOffset={6}>
          {!current ? <p className="muted">{t("topbar.noAnnouncements")}</p> : (
            <article className={`announcement priority-${current.priority}`}>
              <h3>{current.title}</h3>
              {current.mediaPath && (/\.mp4$/i.test(current.mediaPath)
                ? <video src={current.mediaPath} controls />
                : <img src={current.mediaPath} alt={current.mediaName ?? ""} />)}
              <p>{current.text}</p>
              <div className="row-actions">
                <button type="button" className="btn" disabled={index === 0} onClick={() => setIndex(index - 1)}>{t("topbar.previous")}</button>
                <button type="button" className="btn" disabled={index >= items.length - 1} onClick={() => setIndex(index + 1)}>{t("topbar.next")}</button>
                <button type="button" className="btn btn-primary" onClick={markAllRead}>{t("topbar.markAllRead")}</button>
              </div>
            </article>
          )}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
