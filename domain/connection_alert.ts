/**
 * A dropped WhatsApp number (issue #40): a connection that left CONNECTED and stayed away for
 * longer than the grace period (`BALCAO_SESSION_DROP_GRACE`, 5 minutes by default). Its
 * customers' messages are not arriving, so the company's admins are told once per drop (a bell
 * entry and a toast in the app, an e-mail where mail is configured), the platform owner sees
 * every company's dropped connections on one page, and the audit log and the metrics record
 * it. A reconnect clears it; a drop that ends within the grace period tells nobody (a phone
 * that lost its signal for a minute, a restart).
 *
 * The alert is written by the connection's session actor (actors/sessions/actor.ts) with a
 * durable timer, in the same atomic as its state; a restored alert is kept a week so the
 * platform owner's page shows recent drops, then expires.
 */
import { z } from "zod";
import { isoText } from "./iso_date.ts";
import { escapeHtml } from "./password_reset.ts";
import { Provider } from "./whatsapp.ts";

/** GET /connection-alerts' query. */
export const ConnectionAlertQuery = z.object({
  /** Platform owner only: every company's alerts, restored ones of the last week included. */
  all: z.enum(["true", "false"]).optional(),
});

/** Default grace period before a drop is told (BALCAO_SESSION_DROP_GRACE, in seconds, sets it). */
export const DEFAULT_DROP_GRACE_MS = 5 * 60_000;

/** How long a restored alert stays on the platform owner's page. */
export const RESTORED_ALERT_KEEP_MS = 7 * 24 * 3600_000;

/** One alert as stored (`["connection_alert", companyId, whatsappId]`). */
export const ConnectionAlert = z.object({
  companyId: z.number(),
  whatsappId: z.number(),
  /** The connection's name when the alert was raised. */
  name: z.string(),
  provider: Provider,
  /** When the connection left CONNECTED (ms since the epoch). */
  droppedAt: z.number(),
  /** When the admins were told: the grace period after `droppedAt`. */
  notifiedAt: z.number(),
  /** When it was CONNECTED again (or an admin stopped it); null while it is down. */
  restoredAt: z.number().nullable(),
});
export type ConnectionAlert = z.infer<typeof ConnectionAlert>;

/** An alert as the API shows it: times as ISO text, and the company's name for the owner. */
export interface ConnectionAlertView {
  companyId: number;
  companyName?: string;
  whatsappId: number;
  name: string;
  provider: Provider;
  droppedAt: string;
  notifiedAt: string;
  restoredAt: string | null;
}

/** The API's view of an alert (`companyName` for the platform owner's page). */
export function alertView(alert: ConnectionAlert, companyName?: string): ConnectionAlertView {
  return {
    companyId: alert.companyId,
    ...(companyName === undefined ? {} : { companyName }),
    whatsappId: alert.whatsappId,
    name: alert.name,
    provider: alert.provider,
    droppedAt: isoText(alert.droppedAt),
    notifiedAt: isoText(alert.notifiedAt),
    restoredAt: alert.restoredAt === null ? null : isoText(alert.restoredAt),
  };
}

/** The realtime channel suffix of alerts (`company-{id}-connectionAlert`, admins only). */
export const CONNECTION_ALERT_CHANNEL = "connectionAlert";

/** Open alerts first (longest down first), then restored ones (latest first). */
export function alertOrder(a: ConnectionAlert, b: ConnectionAlert): number {
  if ((a.restoredAt === null) !== (b.restoredAt === null)) return a.restoredAt === null ? -1 : 1;
  if (a.restoredAt === null) return a.droppedAt - b.droppedAt;
  return (b.restoredAt ?? 0) - (a.restoredAt ?? 0);
}

/** The e-mail to a company's admin about a dropped connection (Portuguese, as the product's mails). */
export function dropMail(input: { userName: string; companyName: string; connectionName: string; droppedAt: string; minutes: number; link?: string }): {
  subject: string;
  text: string;
  html: string;
} {
  const subject = `WhatsApp desconectado: ${input.connectionName}`;
  const lines = [
    `Olá ${input.userName},`,
    "",
    `A conexão "${input.connectionName}" de ${input.companyName} está desconectada desde ${input.droppedAt} ` +
    `(há mais de ${input.minutes} minuto${input.minutes === 1 ? "" : "s"}). As mensagens dos clientes para esse número não estão chegando.`,
    "",
    input.link ? `Abra Conexões para reconectar: ${input.link}` : "Abra Conexões no Balcão para reconectar.",
  ];
  return { subject, text: lines.join("\n"), html: lines.filter(Boolean).map((line) => `<p>${escapeHtml(line)}</p>`).join("") };
}
