/**
 * Ticket tracking notes (shared/UI.md "system lines for transfers"): what a ticket transition
 * leaves in its conversation — accepted, transferred, returned to the queue, resolved,
 * reopened — shown as a centred grey line among the messages. The names are kept as they were
 * at the time (a renamed queue does not rewrite history). Pure; importable by islands.
 *
 * Reading chosen (the spec names no such record): notes are not messages, so they are never
 * sent to WhatsApp, never counted as unread, never the list preview and never searched.
 */
import { z } from "zod";
import type { Ticket, TicketCommand } from "./ticket.ts";

/** The transitions that leave a note (spec 000 §4 actions). */
export const TRACKING_ACTIONS = ["accept", "transfer", "return", "close", "reopen"] as const;

/**
 * Notes of the conversation's bot integrations (issue #17), shown to agents only: an
 * integration that failed (the customer got the fallback text and the ticket waits for an
 * agent) and a bot flow that ended. `detail` names the service and, for a failure, the reason.
 */
export const BOT_NOTE_ACTIONS = ["integrationFailed", "botFinished", "chatbot"] as const;
export type BotNoteAction = typeof BOT_NOTE_ACTIONS[number];
export const TrackingAction = z.enum([...TRACKING_ACTIONS, ...BOT_NOTE_ACTIONS]);
export type TrackingAction = z.infer<typeof TrackingAction>;

/** A stored note, under `["ticket_tracking", companyId, ticketId, id]`. */
export const TicketTracking = z.object({
  /** Sorts by time within the ticket: `{ms, 13 digits}{counter, 3 digits}`. */
  id: z.string(),
  ticketId: z.number(),
  action: TrackingAction,
  /** The ticket's queue and user after the transition. */
  queueId: z.number().nullable(),
  queueName: z.string().nullable(),
  userId: z.number().nullable(),
  userName: z.string().nullable(),
  /** Who did it. */
  byUserId: z.number().nullable(),
  byUserName: z.string().nullable(),
  /** ISO time, like a message view's `createdAt`. */
  createdAt: z.string(),
  /** Bot notes: the service and what happened (BOT_NOTE_ACTIONS); null for transitions. */
  detail: z.string().nullable().default(null),
});
export type TicketTracking = z.infer<typeof TicketTracking>;

/** The id of a note made at `at` (ms) with per-ms counter `seq`. */
export function trackingId(at: number, seq: number): string {
  return `${String(Math.max(0, Math.floor(at))).padStart(13, "0")}${String(seq % 1000).padStart(3, "0")}`;
}

/**
 * The note a change from `before` to `after` made by user `byUserId` leaves, or null (tags,
 * unread counter and other changes leave none). `commands` are the types of the machine's
 * commands that made the change (domain/ticket_input.ts commandsForUpdate): a `transfer` is a
 * transfer even when the ticket ends up as a return would (same queue, no user, pending). A
 * queue change is a transfer; a pending ticket opened for someone other than who acted was
 * transferred to them, not accepted.
 */
export function trackingAction(
  before: Pick<Ticket, "status" | "queueId" | "userId">,
  after: Pick<Ticket, "status" | "queueId" | "userId">,
  byUserId: number | null,
  commands: readonly TicketCommand["type"][] = [],
): TrackingAction | null {
  if (after.status === "closed") return before.status === "closed" ? null : "close";
  if (before.status === "closed") return "reopen";
  const same = before.status === after.status && before.queueId === after.queueId &&
    before.userId === after.userId;
  if (same) return null;
  if (before.queueId !== after.queueId || commands.includes("transfer")) return "transfer";
  if (before.status === "pending" && after.status === "open") {
    return after.userId === byUserId ? "accept" : "transfer";
  }
  if (before.status === "open" && after.status === "pending") return "return";
  if (before.userId !== after.userId && after.userId !== null) return "transfer";
  return null;
}
