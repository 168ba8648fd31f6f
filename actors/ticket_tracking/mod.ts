/**
 * Ticket tracking notes (domain/ticket_tracking.ts): one small actor per company appends a
 * note after a ticket transition and publishes it, after commit, on `company-{id}-appMessage`
 * as `{ action: "tracking", tracking, ticket: { id, uuid } }` to whoever may see the ticket.
 * Notes are append-only records with unique time-sorted keys, so the actor holds no state
 * beyond a per-millisecond counter; a ticket's notes are read with one `kv.list`.
 */
import { defineActor } from "../_runtime/actor.ts";
import type { ActorSystem } from "../_runtime/system.ts";
import { getCompanyUser } from "../platform/lookup.ts";
import { queues } from "../queues/collection.ts";
import { ticketScope } from "../tickets/mod.ts";
import { companyChannel } from "../../domain/events.ts";
import type { Ticket, TicketCommand } from "../../domain/ticket.ts";
import {
  type BotNoteAction,
  TicketTracking,
  type TrackingAction,
  trackingAction,
  trackingId,
} from "../../domain/ticket_tracking.ts";

/** KV kind of the notes: `["ticket_tracking", companyId, ticketId, id]`. */
export const TRACKING_KIND = "ticket_tracking";

/** Most notes one ticket's read returns (the newest ones). */
const MAX_NOTES = 500;

/** The prefix of a ticket's notes. */
export function ticketTrackingPrefix(companyId: number, ticketId: number): Deno.KvKey {
  return [TRACKING_KIND, companyId, ticketId];
}

interface TrackingState {
  lastAt: number;
  seq: number;
}

/** What `add` stores: a note without its id and time (the actor sets them). */
type NewNote = Omit<TicketTracking, "id" | "createdAt">;

export const trackingActor = defineActor({
  kind: "ticket-tracking",
  load(): Promise<TrackingState> {
    return Promise.resolve({ lastAt: 0, seq: 0 });
  },
  handlers: {
    /** Stores a note of `ticket` and publishes it after commit. */
    add(ctx, arg: { ticket: Ticket; note: NewNote }): TicketTracking {
      const s = ctx.state;
      s.seq = ctx.now === s.lastAt ? s.seq + 1 : 0;
      s.lastAt = ctx.now;
      const note: TicketTracking = {
        ...arg.note,
        id: trackingId(ctx.now, s.seq),
        createdAt: new Date(ctx.now).toISOString(),
      };
      const { ticket } = arg;
      ctx.set([...ticketTrackingPrefix(ticket.companyId, ticket.id), note.id], note);
      ctx.emit({
        companyId: ticket.companyId,
        channel: companyChannel(ticket.companyId, "appMessage"),
        data: { action: "tracking", tracking: note, ticket: { id: ticket.id, uuid: ticket.uuid } },
        scope: ticketScope(ticket),
      });
      return note;
    },
    /** Deletes the notes `ids` of a deleted ticket. */
    drop(ctx, arg: { companyId: number; ticketId: number; ids: string[] }): number {
      for (const id of arg.ids) ctx.delete([...ticketTrackingPrefix(arg.companyId, arg.ticketId), id]);
      return arg.ids.length;
    },
  },
});

/**
 * Records the note the change `before` → `after` by user `byUserId`, made by commands of types
 * `commands`, leaves (none for changes that are not transitions); resolves with it, or null.
 */
export async function recordTransition(
  system: ActorSystem,
  before: Ticket,
  after: Ticket,
  byUserId: number | null,
  commands: readonly TicketCommand["type"][] = [],
): Promise<TicketTracking | null> {
  const action: TrackingAction | null = trackingAction(before, after, byUserId, commands);
  if (!action) return null;
  const companyId = after.companyId;
  const [queue, user, by] = await Promise.all([
    after.queueId === null ? undefined : queues.in(system, companyId).get(after.queueId),
    after.userId === null ? undefined : getCompanyUser(system, companyId, after.userId),
    byUserId === null ? undefined : getCompanyUser(system, companyId, byUserId),
  ]);
  return await system.ref(trackingActor, companyId).ask("add", {
    ticket: after,
    note: {
      ticketId: after.id,
      action,
      queueId: after.queueId,
      queueName: queue?.name ?? null,
      userId: after.userId,
      userName: user?.name ?? null,
      byUserId,
      byUserName: by?.name ?? null,
      detail: null,
    },
  });
}

/**
 * Records a bot note (domain/ticket_tracking.ts BOT_NOTE_ACTIONS) in `ticket`'s conversation,
 * with the ticket's queue as it is now; resolves with the note.
 */
export async function recordBotNote(
  system: ActorSystem,
  ticket: Ticket,
  action: BotNoteAction,
  detail: string,
): Promise<TicketTracking> {
  const queue = ticket.queueId === null ? undefined : await queues.in(system, ticket.companyId).get(ticket.queueId);
  return await system.ref(trackingActor, ticket.companyId).ask("add", {
    ticket,
    note: {
      ticketId: ticket.id,
      action,
      queueId: ticket.queueId,
      queueName: queue?.name ?? null,
      userId: ticket.userId,
      userName: null,
      byUserId: null,
      byUserName: null,
      detail,
    },
  });
}

/** The notes of a ticket, oldest first (at most the newest 500). */
export async function ticketTracking(
  kv: Deno.Kv,
  companyId: number,
  ticketId: number,
): Promise<TicketTracking[]> {
  const entries = await Array.fromAsync(
    kv.list({ prefix: ticketTrackingPrefix(companyId, ticketId) }, { reverse: true, limit: MAX_NOTES }),
  );
  return entries.reverse().map((e) => TicketTracking.parse(e.value));
}

/** Deletes every note of the deleted ticket `ticketId`; resolves with how many there were. */
export async function deleteTicketTracking(
  system: ActorSystem,
  kv: Deno.Kv,
  companyId: number,
  ticketId: number,
): Promise<number> {
  const entries = await Array.fromAsync(kv.list({ prefix: ticketTrackingPrefix(companyId, ticketId) }));
  if (entries.length === 0) return 0;
  const ids = entries.map((e) => String(e.key[e.key.length - 1]));
  return await system.ref(trackingActor, companyId).ask("drop", { companyId, ticketId, ids });
}
