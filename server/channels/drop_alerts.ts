/**
 * What the server does when a session actor raises or clears a dropped-number alert
 * (actors/sessions/drops.ts, domain/connection_alert.ts): it hears the alert's event, which
 * the bus publishes only once the alert is durable, and
 * - counts the drop in the metrics (`balcao_whatsapp_drops_total`);
 * - appends `connection.dropped` (or `connection.restored`) to the company's audit log;
 * - mails each of the company's admins, when the platform's e-mail is configured.
 * The app's bell and toast get the same event over the realtime hub (admins only). Each step
 * that fails is logged and the others still run; a crash between the alert's commit and this
 * loses the e-mail, never the bell entry.
 */
import { companyUsers, getCompany, platformSettings } from "../../actors/platform/lookup.ts";
import { CONNECTION_ALERT_CHANNEL, type ConnectionAlertView, dropMail } from "../../domain/connection_alert.ts";
import type { BusEvent } from "../../domain/events.ts";
import { recordAudit } from "../audit/record.ts";
import type { AppDeps } from "../deps.ts";
import { mailerFromSettings } from "../mail/mod.ts";

const SUFFIX = `-${CONNECTION_ALERT_CHANNEL}`;

/** Starts listening; returns the function that stops it. */
export function watchConnectionDrops(deps: AppDeps): () => void {
  return deps.bus.subscribe((event) => {
    if (!event.channel.endsWith(SUFFIX)) return;
    void onAlert(deps, event).catch((error) => deps.log.error("A dropped-connection alert was not handled", { error }));
  });
}

async function onAlert(deps: AppDeps, event: BusEvent): Promise<void> {
  const { action, alert } = event.data as { action: string; alert: ConnectionAlertView };
  const target = { kind: "connection" as const, id: alert.whatsappId, name: alert.name };
  const options = { companyId: alert.companyId };
  if (action === "create") {
    deps.metrics.droppedConnection(alert.provider);
    deps.log.warn("WhatsApp connection dropped", { companyId: alert.companyId, whatsappId: alert.whatsappId, provider: alert.provider, droppedAt: alert.droppedAt });
    await Promise.all([
      recordAudit(deps, null, "connection.dropped", target, { droppedAt: alert.droppedAt, provider: alert.provider }, options),
      mailAdmins(deps, alert),
    ]);
  } else if (action === "update" && alert.restoredAt) {
    deps.log.info("WhatsApp connection back", { companyId: alert.companyId, whatsappId: alert.whatsappId, provider: alert.provider });
    await recordAudit(deps, null, "connection.restored", target, { droppedAt: alert.droppedAt, restoredAt: alert.restoredAt }, options);
  }
}

/** One e-mail per admin of the company; none when no e-mail provider is configured. */
async function mailAdmins(deps: AppDeps, alert: ConnectionAlertView): Promise<void> {
  const mailer = mailerFromSettings(await platformSettings(deps.system), deps.config);
  if (!mailer) return;
  const [company, users] = await Promise.all([getCompany(deps.system, alert.companyId), companyUsers(deps.system, alert.companyId)]);
  const minutes = Math.max(1, Math.round((Date.parse(alert.notifiedAt) - Date.parse(alert.droppedAt)) / 60_000));
  const droppedAt = new Date(alert.droppedAt).toLocaleString("pt-BR", { timeZone: "America/Sao_Paulo" });
  const link = deps.config.publicUrl ? `${deps.config.publicUrl}/connections` : undefined;
  for (const user of users.filter((u) => u.profile === "admin" && u.email)) {
    const mail = dropMail({ userName: user.name, companyName: company?.name ?? "", connectionName: alert.name, droppedAt, minutes, link });
    await mailer({ to: user.email, ...mail }).catch((error) =>
      deps.log.warn("The dropped-connection e-mail was not sent", { companyId: alert.companyId, userId: user.id, error })
    );
  }
}
