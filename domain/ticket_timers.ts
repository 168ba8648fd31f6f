/**
 * The conversation's timed rules (issue #17; spec 001 §3 Connection and Queue fields, §9
 * intervals) as pure functions: when an open ticket closes for the customer's silence
 * (`inatividade`), when a pending one moves to the transfer queue (`selectedInterval`,
 * `selectedMoveQueueId`), and to whom the queue's router (`ativarRoteador`, `tempoRoteador`)
 * offers it. The ticket desk (actors/tickets/timers.ts) turns them into actor timers armed in
 * the same commit as the ticket change that starts the wait; nothing here reads a clock.
 *
 * Readings chosen where the spec is silent ("transitions performed by the server without a
 * user action: not shown", 000 §4), after how products of this family behave:
 * - Auto-close: the customer is "silent" when the company side wrote last (an agent, the bot,
 *   a greeting) and the customer has not answered since. The clock starts at the later of that
 *   message and the accept; a customer message stops it (the ticket then waits on the agent,
 *   and closing it would punish the customer), the next company message starts it again.
 * - Auto-move: the wait starts when the ticket becomes pending (a new conversation, a return
 *   or a transfer without a user) and ends when it stops being pending: in this product an
 *   agent must accept a ticket before replying (server/api/messages.ts), so "answered" means
 *   accepted. A ticket already in the transfer queue does not move, and a moved ticket does
 *   not wait again (it would only move to where it is).
 * - Router: "offered" means assigned to the user while the status stays pending: the ticket
 *   shows in that user's own list, only that user (or a manager) may accept it (assertCanHandle
 *   refuses another plain user), and after `tempoRoteador` minutes unaccepted it is offered to
 *   the next online user of the queue. 0 minutes offers once and never rotates. With nobody
 *   online the offer is withdrawn (any queue member may accept) and retried after the interval.
 * - Default auto-close (spec 000 §9: "Auto-close tickets default 24 hours (build-time
 *   setting)"): a connection whose `inatividade` is 0 ("none set") closes after
 *   `DEFAULT_INACTIVITY_MINUTES`, a constant of this build. In the product the spec was read
 *   from, the web client closed every open ticket untouched for that long whenever it loaded a
 *   list; here the desk's durable timers do it, under the same silence rule as `inatividade`:
 *   only a ticket whose customer has not answered the company's last message closes, so a
 *   customer still waiting for an answer is never closed away unanswered. Tickets stored before
 *   this rule get their timer at their next change (no sweep over every ticket).
 * - Group tickets are left alone by all three: a close message or a rotation in a group
 *   conversation would reach every participant.
 */
import type { Queue } from "./queue.ts";
import type { Ticket } from "./ticket.ts";
import type { Whatsapp } from "./whatsapp.ts";

/** One minute of the intervals, in ms (tests shorten it through the ticket ports). */
export const MINUTE_MS = 60_000;

/** The silence after which an open ticket closes when its connection sets none: 24 hours. */
export const DEFAULT_INACTIVITY_MINUTES = 24 * 60;

/** The connection fields the rules read. */
export type TimedConnection = Pick<
  Whatsapp,
  "inatividade" | "selectedInterval" | "selectedMoveQueueId" | "closeMessage"
>;

/** The queue fields the router reads. */
export type RoutedQueue = Pick<Queue, "ativarRoteador" | "tempoRoteador">;

/** The ticket fields the rules read. */
export type TimedTicket = Pick<
  Ticket,
  "status" | "isGroup" | "queueId" | "userId" | "latestCreatedAt" | "acceptedAt" | "lastFromMe"
>;

/** Handlers of the ticket desk that the timers call. */
export type TicketTimerHandler = "autoClose" | "autoMove" | "routeTicket";

/** Timer ids of ticket `id` in its company's desk (one desk holds every ticket). */
export const closeTimerId = (id: number) => `close:${id}`;
export const moveTimerId = (id: number) => `move:${id}`;
export const routeTimerId = (id: number) => `route:${id}`;

/**
 * When `t` closes for the customer's silence (see the module doc), or null when it does not
 * wait on the customer.
 */
export function autoCloseDue(
  t: TimedTicket,
  conn: TimedConnection | undefined,
  minuteMs: number,
): number | null {
  if (t.status !== "open" || t.isGroup || !conn) return null;
  // Records stored before the field existed read it as undefined: not waiting.
  if (t.lastFromMe !== true || t.latestCreatedAt === null) return null;
  return Math.max(t.latestCreatedAt, t.acceptedAt ?? 0) + inactivityMinutes(conn) * minuteMs;
}

/** The silence, in minutes, after which an open ticket of `conn` closes (its own, else the default). */
export function inactivityMinutes(conn: Pick<TimedConnection, "inatividade">): number {
  return conn.inatividade > 0 ? conn.inatividade : DEFAULT_INACTIVITY_MINUTES;
}

/** The queue `t` auto-moves to, or null when the connection does not move it. */
export function autoMoveTarget(t: TimedTicket, conn: TimedConnection | undefined): number | null {
  if (t.status !== "pending" || t.isGroup || !conn) return null;
  if (!(conn.selectedInterval > 0) || conn.selectedMoveQueueId === null) return null;
  return t.queueId === conn.selectedMoveQueueId ? null : conn.selectedMoveQueueId;
}

/** When pending `t`, waiting since `since`, moves to the transfer queue; null when it does not. */
export function autoMoveDue(
  t: TimedTicket,
  conn: TimedConnection | undefined,
  since: number,
  minuteMs: number,
): number | null {
  return autoMoveTarget(t, conn) === null ? null : since + conn!.selectedInterval * minuteMs;
}

/** Whether the change `before` → `next` starts a pending wait (a new or returned ticket). */
export function startsWaiting(before: TimedTicket | undefined, next: TimedTicket): boolean {
  return next.status === "pending" && before?.status !== "pending";
}

/** Whether the queue's router handles `t`. */
export function isRouted(t: TimedTicket, queue: RoutedQueue | undefined): boolean {
  return t.status === "pending" && !t.isGroup && t.queueId !== null && queue?.ativarRoteador === true;
}

/** Whether `next` is to be offered now: it became pending, or changed queue while pending. */
export function needsOffer(
  before: TimedTicket | undefined,
  next: TimedTicket,
  queue: RoutedQueue | undefined,
): boolean {
  if (!isRouted(next, queue)) return false;
  return before?.status !== "pending" || before.queueId !== next.queueId;
}

/**
 * The user a ticket is offered to next: among `candidates` (the queue's online users, any
 * order), the first id after `last` (the queue's previous pick) in ascending order, wrapping
 * round; the ticket's `current` user is skipped when anyone else is online. Null when nobody is.
 */
export function nextInRotation(
  candidates: readonly number[],
  last: number | undefined,
  current: number | null,
): number | null {
  const sorted = [...candidates].sort((a, b) => a - b);
  const pool = sorted.length > 1 && current !== null ? sorted.filter((id) => id !== current) : sorted;
  if (pool.length === 0) return null;
  return (last === undefined ? undefined : pool.find((id) => id > last)) ?? pool[0];
}

/** When an offer is withdrawn and made to the next user; null when the queue never rotates. */
export function reofferDue(queue: RoutedQueue, now: number, minuteMs: number): number | null {
  return queue.tempoRoteador > 0 ? now + queue.tempoRoteador * minuteMs : null;
}

/** One timer change: arm `id` at `dueAt` (calling `handler`), or cancel it (`dueAt` null). */
export type TimerChange =
  | { id: string; dueAt: number; handler: TicketTimerHandler }
  | { id: string; dueAt: null };

/**
 * The timer changes that the ticket change `before` → `next` needs (see the module doc).
 * `armed(id)` is the due time of an armed timer of the desk. Auto-close is armed lazily: a
 * timer already due no later than the new due time stays, and when it fires early it is
 * re-armed for the rest, so a conversation's messages cost no timer write each.
 */
export function planTicketTimers(
  before: TimedTicket | undefined,
  next: TimedTicket & { id: number },
  conn: TimedConnection | undefined,
  queue: RoutedQueue | undefined,
  armed: (timerId: string) => number | undefined,
  now: number,
  minuteMs: number,
): TimerChange[] {
  const changes: TimerChange[] = [];
  const cancel = (id: string) => {
    if (armed(id) !== undefined) changes.push({ id, dueAt: null });
  };

  const closeDue = autoCloseDue(next, conn, minuteMs);
  if (closeDue !== null) {
    const id = closeTimerId(next.id);
    const current = armed(id);
    if (current === undefined || current > closeDue) changes.push({ id, dueAt: closeDue, handler: "autoClose" });
  } else if (next.status !== "open" && before?.status === "open") {
    cancel(closeTimerId(next.id));
  }

  if (startsWaiting(before, next)) {
    const moveDue = autoMoveDue(next, conn, now, minuteMs);
    if (moveDue !== null) changes.push({ id: moveTimerId(next.id), dueAt: moveDue, handler: "autoMove" });
    else cancel(moveTimerId(next.id));
  } else if (next.status !== "pending" && before?.status === "pending") {
    cancel(moveTimerId(next.id));
  }

  if (needsOffer(before, next, queue)) {
    changes.push({ id: routeTimerId(next.id), dueAt: now, handler: "routeTicket" });
  } else if (next.status !== "pending" && before?.status === "pending") {
    cancel(routeTimerId(next.id));
  }
  return changes;
}
