/**
 * The top bar's bells: tickets with unread messages (visible to admins and supervisors, to
 * others only with setting viewnoti) and the announcements bell (red dot, list, a viewer with
 * Previous / Next and 'Mark all as read').
 */
import { useCallback, useEffect, useState } from "react";
import { useSetAtom } from "jotai";
import { Popover } from "radix-ui";
import { Bell, Megaphone } from "lucide-react";
import { api, get } from "../lib/api.ts";
import { ANNOUNCEMENT_CHANNEL } from "../../domain/realtime.ts";
import { badgeCount, messagePreview } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import type { SessionUser } from "../lib/session.ts";
import { channelName, onChannel, retain } from "../lib/socket.ts";
import { type RingEvent, rings } from "./notification_rule.ts";
import { useHydratedAtomValue } from "../lib/page_store.ts";
import { playNotification } from "./sound.ts";
import { NO_UNREAD_TICKETS, type UnreadTicket, unreadTicketsAtom } from "./unread.ts";
import { AnnouncementViewer, type BellAnnouncement } from "./AnnouncementViewer.tsx";
import { PopoverLinks } from "./PopoverLinks.tsx";

/**
 * Bell with the tickets that have unread messages: every ticket the user's lists hold (their
 * own, the pending ones waiting in their queues, groups), whatever its status, as
 * `GET /tickets?withUnreadMessages=true` answers for them; the badge is the server's count.
 * Refetched (debounced 500 ms) on live events. While it is shown the page has joined the
 * notification room (joinNotification, left again on unmount), so every page of the shell
 * receives the customers' messages and rings (notification_rule.ts), not only /tickets.
 */
export function NotificationsBell({ user }: { user: SessionUser }) {
  const { tickets, count } = useHydratedAtomValue(unreadTicketsAtom, NO_UNREAD_TICKETS);
  const setUnread = useSetAtom(unreadTicketsAtom);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = () =>
      get<{ tickets: UnreadTicket[]; count: number }>("/tickets?withUnreadMessages=true").then(
        (r) => setUnread({ tickets: (r.tickets ?? []).filter((x) => x.unreadMessages > 0), count: r.count ?? 0 }),
        () => {},
      );
    const later = () => {
      clearTimeout(timer);
      timer = setTimeout(load, 500);
    };
    load();
    const release = retain("notification", { type: "joinNotification" }, { type: "leaveNotification" });
    const offs = [
      onChannel(channelName(user.companyId, "ticket"), later),
      onChannel(channelName(user.companyId, "appMessage"), (data) => {
        const watching = { path: location.pathname, visible: document.visibilityState === "visible" };
        if (rings(user.id, data as RingEvent, watching)) playNotification();
        if ((data as RingEvent).action === "create") later();
      }),
      onChannel("resync", later),
    ];
    return () => {
      clearTimeout(timer);
      offs.forEach((off) => off());
      release();
    };
  }, [user.id]);
  return (
    <Popover.Root>
      <Popover.Trigger className="icon-btn topbar-btn" aria-label={t("topbar.notifications")}>
        <Bell size={20} />
        {count > 0 && <span className="badge" data-testid="notifications-count">{badgeCount(count)}</span>}
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="popover" align="end" sideOffset={6}>
          {tickets.length === 0 ? <p className="muted">{t("topbar.noNotifications")}</p> : (
            <PopoverLinks
              testId="notification-item"
              links={tickets.map((ticket) => ({
                key: ticket.id,
                href: `/tickets/${ticket.uuid}`,
                title: ticket.contact?.name ?? "",
                detail: messagePreview(ticket.lastMessage),
              }))}
            />
          )}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

/**
 * Announcements bell (spec 000 §2): a red dot while the user has unread announcements; the
 * popover lists them (border colour by priority) and opening one shows the viewer. The list is
 * refetched on every company-announcement event and whenever the popover opens.
 */
export function AnnouncementsBell({ user }: { user: SessionUser }) {
  const [items, setItems] = useState<BellAnnouncement[]>([]);
  const [listOpen, setListOpen] = useState(false);
  const [viewing, setViewing] = useState<number | null>(null);
  const load = useCallback(
    () =>
      get<BellAnnouncement[]>(`/announcements/unread/${user.companyId}`).then(
        (r) => setItems(Array.isArray(r) ? r : []),
        () => {},
      ),
    [user.companyId],
  );
  useEffect(() => {
    load();
    return onChannel(ANNOUNCEMENT_CHANNEL, load);
  }, [user.id, load]);
  function openList(open: boolean) {
    setListOpen(open);
    if (open) load();
  }
  function view(index: number) {
    setListOpen(false);
    setViewing(index);
  }
  async function markAllRead() {
    const body = (a: BellAnnouncement) => ({ userId: user.id, announcementId: a.id });
    await Promise.allSettled(items.map((a) => api("POST", `/user-announcements/${a.id}/read`, body(a))));
    setViewing(null);
    await load();
  }
  return (
    <>
      <Popover.Root open={listOpen} onOpenChange={openList}>
        <Popover.Trigger className="icon-btn topbar-btn" aria-label={t("topbar.announcements")} data-testid="announcements-bell">
          <Megaphone size={20} />
          {items.length > 0 && <span className="dot" aria-hidden="true" data-testid="announcements-dot" />}
        </Popover.Trigger>
        <Popover.Portal>
          <Popover.Content className="popover popover-wide" align="end" sideOffset={6}>
            {items.length === 0 ? <p className="muted">{t("topbar.noAnnouncements")}</p> : (
              <ul className="popover-list announcement-list">
                {items.map((a, i) => (
                  <li key={a.id}>
                    <button type="button" className={`announcement announcement-item priority-${a.priority}`} onClick={() => view(i)}>
                      <strong>{a.title}</strong>
                      <span className="muted announcement-snippet">{a.text}</span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </Popover.Content>
        </Popover.Portal>
      </Popover.Root>
      <AnnouncementViewer items={items} index={viewing} onIndex={setViewing} onMarkAllRead={markAllRead} />
    </>
  );
}
