/**
 * When the new-message sound plays (spec 000 §2 "Notification bell and sound"). The socket of
 * a page with the bell gets the message events of every ticket the user may see
 * (joinNotification), so a manager would hear every conversation of the company; it rings,
 * as products of this family do, only for what waits on this user: a customer's message in a
 * ticket of theirs or in one nobody holds yet (a pending ticket of their queues, a group).
 * A message of the conversation already on screen does not ring: the agent sees it arrive.
 */

/** The parts of an `appMessage` event the rule reads. */
export interface RingEvent {
  action?: string;
  message?: { fromMe?: boolean; ticketId?: number };
  ticket?: { id?: number; uuid?: string; userId?: number | null };
}

/** Where the user is looking: the page's path and whether the tab is visible. */
export interface Watching {
  path: string;
  visible: boolean;
}

/** Whether the event rings the bell's sound for user `userId`. */
export function rings(userId: number, event: RingEvent, watching: Watching): boolean {
  if (event.action !== "create" || !event.message || event.message.fromMe) return false;
  const ticket = event.ticket;
  if (!ticket || (ticket.userId != null && ticket.userId !== userId)) return false;
  const onScreen = watching.visible && ticket.uuid !== undefined && watching.path === `/tickets/${ticket.uuid}`;
  return !onScreen;
}
