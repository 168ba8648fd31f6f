/**
 * The newest messages of a ticket, kept in its actor's memory so the page a conversation
 * opens on (page 1, the newest `MESSAGE_PAGE_SIZE`) is served without a KV read: opening a
 * ticket is the inbox's most frequent read, and a reverse `kv.list` of 20 values cost
 * ~0.4 ms of the ~0.9 ms the page took (bench/inbox.ts).
 *
 * The tail is loaded on the first page read of an activation, not in `load` nor for a new
 * ticket (`empty`, actor.ts says why): inbound-only activations (most of the ingest path)
 * never pay for it. Once loaded, every append and change of the actor keeps it exact. Pages
 * are read through an ask, so the runtime releases them after the actor's earlier writes are
 * committed: a page never shows an unacknowledged message.
 */
import { type Message, MESSAGE_PAGE_SIZE } from "../../domain/message.ts";
import { ticketMessagesPrefix } from "./keys.ts";
import { storedMessage } from "./stored.ts";

/** How many newest messages the tail keeps. */
export const TAIL_SIZE = MESSAGE_PAGE_SIZE;

/**
 * Reads the tail from KV and overlays `written` (this activation's writes still in flight,
 * and so perhaps not yet in KV). Oldest first.
 */
export async function loadTail(
  kv: Deno.Kv,
  companyId: number,
  ticketId: number,
  written: readonly Message[],
): Promise<Message[]> {
  const byId = new Map<string, Message>();
  for await (
    const entry of kv.list(
      { prefix: ticketMessagesPrefix(companyId, ticketId) },
      { reverse: true, limit: TAIL_SIZE, batchSize: TAIL_SIZE },
    )
  ) {
    const message = storedMessage(entry.value);
    byId.set(message.id, message);
  }
  for (const message of written) byId.set(message.id, message);
  // Ids sort by time, so the newest are the largest.
  return [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : 1)).slice(-TAIL_SIZE);
}

/** Adds a newly written message (the newest) to `tail`, dropping the oldest beyond the size. */
export function pushToTail(tail: Message[], message: Message): void {
  tail.push(message);
  if (tail.length > TAIL_SIZE) tail.shift();
}

/** Replaces the changed version of a message if the tail holds it. */
export function replaceInTail(tail: Message[], message: Message): void {
  const at = tail.findIndex((m) => m.id === message.id);
  if (at >= 0) tail[at] = message;
}
