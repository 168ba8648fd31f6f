/**
 * The side drawer (300 px; temporary under 600 px): menu items gated per menu.ts, with the
 * /connections warning badge shown 2 s after a connection enters a warning status.
 */
import { useEffect, useState } from "react";
import { TriangleAlert } from "lucide-react";
import { get } from "../lib/api.ts";
import { badgeCount } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import type { SessionUser } from "../lib/session.ts";
import { channelName, onChannel } from "../lib/socket.ts";
import { MENU_ICONS } from "./icons.ts";
import { useChatUnreads } from "./chat_unread.ts";
import { isCurrent, MENU, visibleMenu, WARNING_STATUSES } from "./menu.ts";
import { campaignFlag } from "../lib/campaign_flag.ts";

interface Connection {
  id: number;
  status: string;
}

/** Whether any connection needs attention, checked 2 s after load and on session and connection events. */
function useConnectionWarning(user: SessionUser | null): boolean {
  const [warn, setWarn] = useState(false);
  useEffect(() => {
    if (!user) return;
    let connections: Connection[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const evaluate = () => {
      clearTimeout(timer);
      timer = setTimeout(() => setWarn(connections.some((c) => WARNING_STATUSES.has(c.status))), 2000);
    };
    get<Connection[] | { whatsapps?: Connection[] }>("/whatsapp/?session=0").then((list) => {
      connections = Array.isArray(list) ? list : list.whatsapps ?? [];
      evaluate();
    }, () => {});
    const off = onChannel(channelName(user.companyId, "whatsappSession"), (data) => {
      const session = (data as { session?: Connection })?.session;
      if (!session) return;
      connections = [...connections.filter((c) => c.id !== session.id), session];
      evaluate();
    });
    // A connection created or deleted changes the set: a deleted one waiting for its QR must
    // not keep the badge up.
    const offList = onChannel(channelName(user.companyId, "whatsapp"), (data) => {
      const event = data as { action?: string; whatsapp?: Connection; whatsappId?: number };
      if (event.action === "delete") connections = connections.filter((c) => c.id !== event.whatsappId);
      else if (event.whatsapp) connections = [...connections.filter((c) => c.id !== event.whatsapp!.id), event.whatsapp];
      evaluate();
    });
    return () => {
      clearTimeout(timer);
      off();
      offList();
    };
  }, [user?.id]);
  return warn;
}

/** Props of Drawer. */
export interface DrawerProps {
  user: SessionUser | null;
  /** An expired company's landing: only the invoices are reachable (spec 000 §4). */
  expired?: boolean;
  path: string;
  open: boolean;
  onNavigate: () => void;
}

/** The navigation drawer. */
export function Drawer({ user, expired, path, open, onNavigate }: DrawerProps) {
  const warn = useConnectionWarning(user);
  const chatUnreads = useChatUnreads(user);
  // A user is only known in the browser (the session loads after hydration), so the flag is read there.
  const items = user ? visibleMenu(user, { cshow: campaignFlag() }) : expired ? MENU.filter((i) => i.path === "/financeiro") : [];
  const sections = [
    { key: "main", items: items.filter((i) => i.section === "main") },
    { key: "admin", items: items.filter((i) => i.section === "admin") },
  ];
  return (
    <nav className="drawer" data-open={open} aria-label={t("menu.open")} id="app-drawer">
      <div className="drawer-brand">{t("app.name")}</div>
      {!user && !expired && <div className="drawer-skeleton" aria-busy="true"><span className="skeleton skeleton-line" /><span className="skeleton skeleton-line" /><span className="skeleton skeleton-line short" /></div>}
      {sections.map((section) =>
        section.items.length > 0 && (
          <ul key={section.key} className="menu">
            {section.key === "admin" && <li className="menu-heading">{t("menu.administration")}</li>}
            {section.items.map((item) => {
              const Icon = MENU_ICONS[item.icon];
              const current = isCurrent(item, path);
              return (
                <li key={item.path}>
                  <a href={item.path} className="menu-item" aria-current={current ? "page" : undefined} onClick={onNavigate}>
                    <Icon size={20} aria-hidden="true" />
                    <span>{t(item.label)}</span>
                    {item.path === "/chats" && chatUnreads > 0 && (
                      <span className="badge badge-inline menu-badge" aria-label={t("chats.unread", { count: chatUnreads })} data-testid="chats-unread">
                        {badgeCount(chatUnreads)}
                      </span>
                    )}
                    {item.path === "/connections" && warn && (
                      <span className="menu-warning" title={t("menu.connectionsWarning")} data-testid="connections-warning">
                        <TriangleAlert size={16} aria-label={t("menu.connectionsWarning")} />
                      </span>
                    )}
                  </a>
                </li>
              );
            })}
          </ul>
        )
      )}
    </nav>
  );
}
