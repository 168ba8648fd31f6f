/** The rows of the /webhooks page and the events' labels (names from domain/webhook.ts). */
import { WEBHOOK_EVENTS } from "../../domain/webhook.ts";
import { hasText, t } from "../lib/i18n.ts";

/** A subscription as GET /webhooks/subscriptions answers it (an event's record lacks pending and lastDelivery). */
export interface WebhookRow {
  id: number;
  url: string;
  events: string[];
  /** The mask, never the secret. */
  secret: string;
  active: boolean;
  pending?: number;
  lastDelivery?: { status: DeliveryStatus; statusCode: number | null; createdAt: number } | null;
}

export type DeliveryStatus = "pending" | "delivered" | "failed";

/** How often an open delivery log, and the table while a delivery is still pending, ask again. */
export const REFRESH_MS = 3000;

/** Whether a row still waits on a delivery, so its pending count and last delivery will move. */
export function awaitsDelivery(row: WebhookRow): boolean {
  return (row.pending ?? 0) > 0 || row.lastDelivery?.status === "pending";
}

/** Every event a subscription may choose, in the checklist's order. */
export const EVENTS: readonly string[] = WEBHOOK_EVENTS;

/** An event's label in the reader's language, or its name. */
export function eventLabel(event: string): string {
  const key = `webhooks.event.${event}`;
  return hasText(key) ? t(key) : event;
}

/** A delivery status's label. */
export function statusLabel(status: DeliveryStatus): string {
  const key = `webhooks.status.${status}`;
  return hasText(key) ? t(key) : status;
}
