/**
 * A session's dropped-number alert (domain/connection_alert.ts), applied by its actor:
 * - leaving CONNECTED (any way but an admin's stop) arms the durable timer `dropAlert` at the
 *   grace period, once: reconnect attempts meanwhile neither re-arm nor move it;
 * - the timer, finding the connection still not CONNECTED, writes the alert (with the state,
 *   in one atomic) and publishes it to the company's admins;
 * - CONNECTED again, or an admin's stop, disarms the timer and marks the alert restored (kept
 *   a week for the platform owner's page, then expired by KV); a deleted connection's alert
 *   is removed.
 * The server tells the admins (e-mail), the audit log and the metrics from the published
 * event (server/channels/drop_alerts.ts), so the actor itself does no I/O beyond its writes.
 */
import type { ActorContext } from "../_runtime/actor.ts";
import { companyChannel } from "../../domain/events.ts";
import type { SessionInput } from "./state.ts";
import type { SessionState } from "./state.ts";
import { type Whatsapp } from "../../domain/whatsapp.ts";
import {
  alertView,
  type ConnectionAlert,
  CONNECTION_ALERT_CHANNEL,
  DEFAULT_DROP_GRACE_MS,
  RESTORED_ALERT_KEEP_MS,
} from "../../domain/connection_alert.ts";
import { connectionAlertKey } from "./alerts.ts";
import { sessionHost } from "./host.ts";

/** The durable timer that tells the admins. */
export const DROP_TIMER = "dropAlert";

type Ctx = ActorContext<SessionState>;

/** The alert's event to the company's admins. */
function publish(ctx: Ctx, action: "create" | "update" | "delete", alert: ConnectionAlert): void {
  ctx.emit({
    companyId: alert.companyId,
    channel: companyChannel(alert.companyId, CONNECTION_ALERT_CHANNEL),
    data: { action, alert: alertView(alert) },
    scope: { kind: "admins" },
  });
}

/**
 * After a transition from `before` to `after` on `input`: arms the timer on leaving CONNECTED,
 * clears it (and restores the alert) on CONNECTED again or an admin's stop.
 */
export function followDrop(ctx: Ctx, before: Whatsapp["status"], after: Whatsapp["status"], input: SessionInput): void {
  if (after === "CONNECTED" || input.type === "stopped") return clearDrop(ctx);
  if (before !== "CONNECTED" || ctx.state.alert || ctx.timerDue(DROP_TIMER) !== undefined) return;
  const graceMs = sessionHost(ctx.system)?.dropGraceMs ?? DEFAULT_DROP_GRACE_MS;
  ctx.setTimer(DROP_TIMER, ctx.now + graceMs, "dropAlert", { droppedAt: ctx.now });
}

/** Disarms the timer; an open alert becomes restored. */
function clearDrop(ctx: Ctx): void {
  if (ctx.timerDue(DROP_TIMER) !== undefined) ctx.cancelTimer(DROP_TIMER);
  const alert = ctx.state.alert;
  if (!alert) return;
  ctx.state.alert = undefined;
  const restored: ConnectionAlert = { ...alert, restoredAt: ctx.now };
  ctx.set(connectionAlertKey(alert.companyId, alert.whatsappId), restored, { expireIn: RESTORED_ALERT_KEEP_MS });
  publish(ctx, "update", restored);
}

/** The timer: raises the alert if the connection is still down. The caller writes the state. */
export function raiseDrop(ctx: Ctx, record: Whatsapp | undefined, droppedAt: number): boolean {
  if (!record || record.status === "CONNECTED" || ctx.state.alert) return false;
  const alert: ConnectionAlert = {
    companyId: record.companyId,
    whatsappId: record.id,
    name: record.name,
    provider: record.provider,
    droppedAt,
    notifiedAt: ctx.now,
    restoredAt: null,
  };
  ctx.state.alert = alert;
  ctx.set(connectionAlertKey(alert.companyId, alert.whatsappId), alert);
  publish(ctx, "create", alert);
  return true;
}

/** The connection is deleted: no timer, no alert. The caller writes the state. */
export function forgetDrop(ctx: Ctx): void {
  if (ctx.timerDue(DROP_TIMER) !== undefined) ctx.cancelTimer(DROP_TIMER);
  const alert = ctx.state.alert;
  ctx.state.alert = undefined;
  ctx.delete(connectionAlertKey(ctx.state.companyId, ctx.state.whatsappId));
  if (alert) publish(ctx, "delete", alert);
}
