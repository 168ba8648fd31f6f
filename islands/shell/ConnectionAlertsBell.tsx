/**
 * The admins' dropped-connection bell (issue #40): shown only while a connection of the
 * company is down past the grace period (GET /connection-alerts), with a count and a list that
 * leads to /connections. An alert that arrives live (`company-{id}-connectionAlert`, sent to
 * admins only) also shows a toast; one cleared live leaves the list. Alerts are stored, so an
 * admin who signs in later sees the bell too.
 */
import { useEffect, useState } from "react";
import { Popover } from "radix-ui";
import { WifiOff } from "lucide-react";
import { CONNECTION_ALERT_CHANNEL, type ConnectionAlertView } from "../../domain/connection_alert.ts";
import { get } from "../lib/api.ts";
import { badgeCount, formatDate, formatTime } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import type { SessionUser } from "../lib/session.ts";
import { channelName, onChannel } from "../lib/socket.ts";
import { showToast } from "../lib/toast.ts";
import { PopoverLinks } from "./PopoverLinks.tsx";

/** The bell; render it only for users who may manage connections. */
export function ConnectionAlertsBell({ user }: { user: SessionUser }) {
  const [alerts, setAlerts] = useState<ConnectionAlertView[]>([]);
  useEffect(() => {
    const load = () => get<{ alerts: ConnectionAlertView[] }>("/connection-alerts").then((r) => setAlerts(r.alerts ?? []), () => {});
    load();
    const offs = [
      onChannel(channelName(user.companyId, CONNECTION_ALERT_CHANNEL), (data) => {
        const event = data as { action?: string; alert?: ConnectionAlertView };
        if (event.action === "create" && event.alert) showToast("warning", t("connectionAlerts.toast", { name: event.alert.name }), `drop-${event.alert.whatsappId}`);
        load();
      }),
      onChannel("resync", load),
    ];
    return () => offs.forEach((off) => off());
  }, [user.id]);
  if (alerts.length === 0) return null;
  return (
    <Popover.Root>
      <Popover.Trigger className="icon-btn topbar-btn" aria-label={t("connectionAlerts.bell")} data-testid="connection-alerts-bell">
        <WifiOff size={20} />
        <span className="badge" data-testid="connection-alerts-count">{badgeCount(alerts.length)}</span>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="popover" align="end" sideOffset={6}>
          <PopoverLinks
            testId="connection-alert-item"
            links={alerts.map((alert) => ({
              key: alert.whatsappId,
              href: "/connections",
              title: alert.name,
              detail: t("connectionAlerts.since", { time: `${formatDate(alert.droppedAt)} ${formatTime(alert.droppedAt)}` }),
              hint: t("connectionAlerts.open"),
            }))}
          />
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
