/**
 * Tracking notes written by the ticket desk (domain/ticket_tracking.ts): a transition's note
 * in the same unit as the transition, so a transition is never durable without its note (nor
 * the other way round), and the pair costs one commit; the bot's notes through the same
 * writer, so one actor numbers every note of the company's tickets and no two share an id.
 * Each is published after the commit on `company-{id}-appMessage` as `{ action: "tracking",
 * tracking, ticket: { id, uuid } }` to whoever may see the ticket.
 */
import type { ActorContext } from "../_runtime/actor.ts";
import { companyChannel } from "../../domain/events.ts";
import { isoText } from "../../domain/iso_date.ts";
import type { Ticket, TicketCommand } from "../../domain/ticket.ts";
import { type TicketTracking, trackingAction, trackingId } from "../../domain/ticket_tracking.ts";
import { ticketTrackingPrefix } from "../ticket_tracking/keys.ts";
import type { DeskState } from "./actor.ts";
import { ticketScope } from "./scope.ts";
import type { TicketLookups } from "./view.ts";

type Ctx = ActorContext<DeskState>;

/** A note before the desk numbers and dates it. */
export type NewNote = Omit<TicketTracking, "id" | "createdAt">;

/** Writes `note` on ticket `t` in the handler's unit and publishes it after the commit. */
export function writeNote(ctx: Ctx, t: Ticket, note: NewNote): TicketTracking {
  const s = ctx.state;
  s.noteSeq = ctx.now === s.noteAt ? (s.noteSeq ?? 0) + 1 : 0;
  s.noteAt = ctx.now;
  const full: TicketTracking = { ...note, id: trackingId(ctx.now, s.noteSeq), createdAt: isoText(ctx.now) };
  ctx.set([...ticketTrackingPrefix(t.companyId, t.id), full.id], full);
  ctx.emit({
    companyId: t.companyId,
    channel: companyChannel(t.companyId, "appMessage"),
    data: { action: "tracking", tracking: full, ticket: { id: t.id, uuid: t.uuid } },
    scope: ticketScope(t),
  });
  return full;
}

/** The note of the transition `before` → `after` by `byUserId` (none for other changes). */
export function writeTransitionNote(
  ctx: Ctx,
  before: Ticket,
  after: Ticket,
  byUserId: number | null,
  commands: readonly TicketCommand["type"][],
  l: TicketLookups,
): void {
  const action = trackingAction(before, after, byUserId, commands);
  if (!action) return;
  const name = (id: number | null) => (id === null ? null : l.users.get(id)?.name ?? null);
  writeNote(ctx, after, {
    ticketId: after.id,
    action,
    queueId: after.queueId,
    queueName: after.queueId === null ? null : l.queues.get(after.queueId)?.name ?? null,
    userId: after.userId,
    userName: name(after.userId),
    byUserId,
    byUserName: name(byUserId),
    detail: null,
  });
}
