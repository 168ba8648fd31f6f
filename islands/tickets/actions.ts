/**
 * Ticket actions of spec 000 §4 as PUT /tickets/{id} bodies (accept, close pending, resolve,
 * return, transfer, reopen, mark as unread) and DELETE. Errors become toasts; each returns
 * the updated ticket or null.
 */
import { api } from "../lib/api.ts";
import { toastError } from "../lib/toast.ts";
import type { TicketItem } from "./types.ts";

async function put(ticket: { id: number }, body: Record<string, unknown>): Promise<TicketItem | null> {
  try {
    return await api<TicketItem>("PUT", `/tickets/${ticket.id}`, body);
  } catch (error) {
    toastError((error as { body?: unknown }).body ?? error);
    return null;
  }
}

/** pending → open for `userId`. */
export function acceptTicket(ticket: { id: number }, userId: number) {
  return put(ticket, { status: "open", userId });
}

/** pending → closed; `farewell` false skips the waiting ticket's farewell (sendFarewellWaitingTicket). */
export function closePending(ticket: { id: number }, userId: number, farewell = true) {
  return put(ticket, { status: "closed", userId, sendFarewellMessage: farewell });
}

/** open → closed, with the farewell choice and the survey to send when the company requires one. */
export function resolveTicket(ticket: { id: number }, userId: number, options: { farewell: boolean; ratingId?: number | null }) {
  return put(ticket, {
    status: "closed",
    userId,
    sendFarewellMessage: options.farewell,
    ...(options.ratingId != null ? { ratingId: options.ratingId } : {}),
  });
}

/** open → pending, user cleared. */
export function returnTicket(ticket: { id: number }) {
  return put(ticket, { status: "pending", userId: null, return: true });
}

/** Queue required; with a user the ticket stays open for them, else it waits as pending. */
export function transferTicket(ticket: { id: number }, queueId: number, userId: number | null) {
  return put(ticket, { queueId, userId, status: userId ? "open" : "pending" });
}

/** closed → open for `userId`. */
export function reopenTicket(ticket: { id: number }, userId: number) {
  return put(ticket, { status: "open", userId });
}

/** Marks as unread (unread counter becomes 1). */
export function markUnread(ticket: { id: number }) {
  return put(ticket, { unreadMessages: 1 });
}

/** Deletes the ticket (permission-gated on the server). */
export async function deleteTicket(ticket: { id: number }): Promise<boolean> {
  try {
    await api("DELETE", `/tickets/${ticket.id}`);
    return true;
  } catch (error) {
    toastError((error as { body?: unknown }).body ?? error);
    return false;
  }
}
