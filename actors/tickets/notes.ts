/**
 * A message's note on its ticket (preview, times, unread counter, who wrote last), made
 * crash-safe. Storing a message (actors/messages) and noting it here are two actors' commits,
 * one after the other; a process killed between them used to leave the message stored and
 * its ticket unaware of it: the inbox preview stale, the unread counter short, and worse,
 * the auto-close wait wrong (an agent's last reply armed no close; a customer's last answer
 * left the ticket closing on a silence that had ended).
 *
 * So the message's atomic also writes what it owes the ticket (`noteDueKey`, tickets/keys.ts)
 * and the note's atomic deletes it. What a crash leaves is applied by the desk's `recover`
 * handler, which the kernel runs first on each activation (actors/_runtime/actor.ts), through
 * the same commit as a live note, so the timers, counters and events follow. Exactly once:
 * - a due note exists only while its note has not committed (it is written before the note
 *   is asked, and deleted in the note's own atomic);
 * - a note that arrives after recovery applied its message (an activation after an eviction,
 *   with the sender still alive) is skipped (`recovered`);
 * - recovery that continues in a later run skips what a live note applied meanwhile (its
 *   delete may not be durable yet when the next run lists).
 * Notes applied late keep the ticket's newest preview and wait (`withMessage`'s `late`).
 */
import type { ActorContext } from "../_runtime/actor.ts";
import { type MessageNote, type Ticket, withMessage } from "../../domain/ticket.ts";
import { messageDelta } from "../../domain/dashboard.ts";
import { parseMessageId } from "../../domain/message.ts";
import { recordDeltas } from "../dashboard/aggregates.ts";
import type { DeskState } from "./actor.ts";
import { noteDueKey, noteDuePrefix } from "./keys.ts";
import type { TicketItem } from "./view.ts";

type Ctx = ActorContext<DeskState>;

/** The desk handler that recovers due notes (the kernel's `recover`, and its continuation). */
export const RECOVER_HANDLER = "recoverNotes";

/**
 * Due notes one recovery run applies: each costs a delete, each ticket about ten writes, and
 * the run's writes must fit one KV atomic (1,000 mutations). The rest go in the next run.
 */
const PER_RUN = 60;

/** What the desk keeps while it recovers (see the module doc). */
export interface NoteRecovery {
  /** Messages whose note recovery applied: a late live note of one of them is skipped. */
  recovered: Set<string>;
  /** Messages noted live while recovery has runs left. */
  notedLive?: Set<string>;
}

/** What the recovery needs from the desk: its commit. */
export interface NoteOps {
  commit(ctx: Ctx, before: Ticket | undefined, next: Ticket): Promise<TicketItem>;
}

/** Argument of the desk's `note`: the ticket, the message and its note. */
export interface NoteArg extends MessageNote {
  id: number;
  messageId: string;
}

/**
 * Whether the live note of `messageId` is to be applied (false: recovery did); records it
 * and deletes its due entry in the note's commit otherwise.
 */
export function takeLiveNote(ctx: Ctx, t: Ticket, messageId: string): boolean {
  const recovery = ctx.state.notes;
  if (recovery?.recovered.delete(messageId)) return false;
  recovery?.notedLive?.add(messageId);
  ctx.delete(noteDueKey(t.companyId, messageId));
  return true;
}

/** The notes' dashboard count and the ticket after them (`late`: see the module doc). */
export function applyNotes(ctx: Ctx, before: Ticket, notes: readonly MessageNote[], late: boolean): Ticket {
  let next = before;
  const deltas = notes.map((note) => {
    const delta = messageDelta(next, note.fromMe, note.at);
    next = withMessage(next, note, late);
    return delta;
  });
  recordDeltas(ctx.state.dash, ctx, before.companyId, deltas);
  return next;
}

/** The desk's recovery handler (see the module doc). */
export function noteRecovery(ops: NoteOps) {
  return async function recoverNotes(ctx: Ctx): Promise<void> {
    const { companyId } = ctx.state;
    const due = await Array.fromAsync(
      ctx.kv.list<MessageNote>({ prefix: noteDuePrefix(companyId) }, { limit: PER_RUN + 1 }),
    );
    const recovery = ctx.state.notes ??= { recovered: new Set() };
    const more = due.length > PER_RUN;
    // Keys sort by message id, time first: each ticket's notes come in order.
    const byTicket = new Map<number, { messageId: string; note: MessageNote }[]>();
    for (const entry of due.slice(0, PER_RUN)) {
      const messageId = String(entry.key[2]);
      if (recovery.notedLive?.has(messageId)) continue;
      ctx.delete(entry.key);
      const ticketId = parseMessageId(messageId)?.ticketId;
      if (ticketId === undefined || !ctx.state.index.byId.has(ticketId)) continue; // deleted: nothing owed
      const list = byTicket.get(ticketId) ?? [];
      list.push({ messageId, note: entry.value });
      byTicket.set(ticketId, list);
    }
    let applied = 0;
    for (const [ticketId, owed] of byTicket) {
      const before = ctx.state.index.byId.get(ticketId)!;
      const next = applyNotes(ctx, before, owed.map((o) => o.note), true);
      await ops.commit(ctx, before, next);
      for (const { messageId } of owed) recovery.recovered.add(messageId);
      applied += owed.length;
    }
    if (applied > 0) console.log(`Desk ${companyId}: applied ${applied} message notes that a stop had left`);
    if (more) {
      recovery.notedLive ??= new Set();
      ctx.setTimer(RECOVER_HANDLER, ctx.now, RECOVER_HANDLER);
    } else {
      recovery.notedLive = undefined;
    }
  };
}
