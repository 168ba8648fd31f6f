/**
 * Ticket tracking notes (domain/ticket_tracking.ts): the ticket desk writes them, a
 * transition's in the transition's own unit and the bot's through `recordBotNote`
 * (actors/tickets/tracking_notes.ts), and publishes them after commit on
 * `company-{id}-appMessage` as `{ action: "tracking", tracking, ticket: { id, uuid } }`. This
 * module reads a ticket's notes (one `kv.list`) and drops a deleted ticket's; one small actor
 * per company does the deletes.
 */
import { defineActor } from "../_runtime/actor.ts";
import type { ActorSystem } from "../_runtime/system.ts";
import { deskOf } from "../tickets/mod.ts";
import type { Ticket } from "../../domain/ticket.ts";
import { type BotNoteAction, TicketTracking } from "../../domain/ticket_tracking.ts";
import { ticketTrackingPrefix, TRACKING_KIND } from "./keys.ts";

export { ticketTrackingPrefix, TRACKING_KIND };

/** Most notes one ticket's read returns (the newest ones). */
const MAX_NOTES = 500;

export const trackingActor = defineActor({
  kind: "ticket-tracking",
  load(): Promise<Record<string, never>> {
    return Promise.resolve({});
  },
  handlers: {
    /** Deletes the notes `ids` of a deleted ticket. */
    drop(ctx, arg: { companyId: number; ticketId: number; ids: string[] }): number {
      for (const id of arg.ids) ctx.delete([...ticketTrackingPrefix(arg.companyId, arg.ticketId), id]);
      return arg.ids.length;
    },
  },
});

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
  return await deskOf(system, ticket.companyId).ask("botNote", { id: ticket.id, action, detail });
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
