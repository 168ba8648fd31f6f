/**
 * The tickets of a company: what other areas call. Reads use the desk's in-memory state
 * (no mailbox, no KV); every change goes through the per-company ticket desk (actor.ts).
 */
import type { ActorSystem } from "../_runtime/system.ts";
import { whatsapps } from "../whatsapps/collection.ts";
import { awaitingRating } from "../ratings/surveys.ts";
import type { Message } from "../../domain/message.ts";
import { type MessageNote, noteOf, type Ticket } from "../../domain/ticket.ts";
import type { EffectStep } from "../../domain/ticket_effects.ts";
import type { CommitLink } from "../_runtime/commit_link.ts";
import { type DeskState, type NotedTicket, ticketDesk, ticketMissing } from "./actor.ts";

export { type DeskState, type NotedTicket, ticketDesk, ticketMissing, ticketScope, type UpdateArg } from "./actor.ts";
export { companyTicketsPrefix, ticketCounterKey, ticketKey } from "./keys.ts";
export { loadLookups, type TicketItem, ticketItem, ticketItemJson, type TicketLookups } from "./view.ts";

/** The desk of a company (to ask it). */
export function deskOf(system: ActorSystem, companyId: number) {
  return system.ref(ticketDesk, companyId);
}

/** The desk's in-memory state (activating it if needed), for reads only. */
export function deskState(system: ActorSystem, companyId: number): Promise<DeskState> {
  return deskOf(system, companyId).peek<DeskState>();
}

/**
 * `getTicket` without a turn of the loop: null when the company's desk is not in memory (then
 * ask `getTicket`), undefined when the ticket does not exist.
 */
export function ticketNow(system: ActorSystem, companyId: number, id: number): Ticket | undefined | null {
  const desk = deskOf(system, companyId).peekNow<DeskState>();
  return desk ? desk.index.byId.get(id) : null;
}

/** The ticket, or undefined when it does not exist in the company. */
export async function getTicket(
  system: ActorSystem,
  companyId: number,
  id: number,
): Promise<Ticket | undefined> {
  return (await deskState(system, companyId)).index.byId.get(id);
}

/** The ticket with this uuid, or undefined. */
export async function getTicketByUuid(
  system: ActorSystem,
  companyId: number,
  uuid: string,
): Promise<Ticket | undefined> {
  const { index } = await deskState(system, companyId);
  const id = index.byUuid.get(uuid);
  return id === undefined ? undefined : index.byId.get(id);
}

/** What an inbound (or own-phone) message tells the desk. */
export interface InboundTicketInput {
  contactId: number;
  whatsappId: number;
  isGroup: boolean;
  fromMe: boolean;
  /** The queue the chatbot or the caller chose; absent: the connection's single queue. */
  queueId?: number | null;
}

/**
 * The ticket an inbound message joins: the open or pending ticket of the contact on that
 * connection, or a new pending one (serialized, so two messages never open two tickets).
 * The new ticket's queue is `queueId` when given, else the connection's queue when it has
 * exactly one, else none. A message sent from the company's own phone (`fromMe`) with no
 * active ticket also creates a pending ticket: nobody accepted it in the product, so it waits
 * in the queue like any other.
 */
export async function openTicketForInbound(
  system: ActorSystem,
  companyId: number,
  input: InboundTicketInput,
): Promise<{ ticket: Ticket; created: boolean }> {
  const { index } = await deskState(system, companyId);
  const found = index.activeOf(input.contactId, input.whatsappId);
  if (found) return { ticket: found, created: false };
  // A customer's reply to a rating survey joins the resolved ticket that awaits it (actors/ratings).
  if (!input.fromMe && !input.isGroup) {
    const rated = await awaitingRating(system, companyId, input.contactId, input.whatsappId);
    const closed = rated === undefined ? undefined : index.byId.get(rated);
    if (closed?.status === "closed") return { ticket: closed, created: false };
  }
  let queueId = input.queueId ?? null;
  let channel = "whatsapp";
  const conn = await whatsapps.in(system, companyId).get(input.whatsappId);
  if (conn) {
    channel = conn.channel || "whatsapp";
    if (input.queueId === undefined && conn.queueIds.length === 1) queueId = conn.queueIds[0];
  }
  return await deskOf(system, companyId).ask("inbound", {
    contactId: input.contactId,
    whatsappId: input.whatsappId,
    isGroup: input.isGroup,
    queueId,
    channel,
  });
}

/**
 * Records that a message joined the ticket: `lastMessage` = `preview`, `updatedAt` and
 * `latestCreatedAt` = `at`, `unreadMessages` + 1 when `unread`; publishes the update.
 */
export async function noteMessage(
  system: ActorSystem,
  companyId: number,
  ticketId: number,
  message: MessageNote,
): Promise<NotedTicket> {
  return await deskOf(system, companyId).ask("note", { id: ticketId, ...message });
}

/**
 * `noteMessage` for a message whose store is held by `link` (messages/store.ts
 * `storeAndNote`): the note commits in the same KV atomic as the message.
 */
export async function noteStoredMessage(
  system: ActorSystem,
  message: Message,
  link: CommitLink,
  effect?: EffectStep,
): Promise<NotedTicket> {
  const arg = { id: message.ticketId, ...noteOf(message), ...(effect ? { effect } : {}) };
  return await deskOf(system, message.companyId).askJoined("note", arg, link);
}

/** Sets the unread counter to 0 and publishes `updateUnread` (nothing when already 0). */
export async function markTicketRead(
  system: ActorSystem,
  companyId: number,
  ticketId: number,
): Promise<Ticket> {
  const t = await getTicket(system, companyId, ticketId);
  if (!t) throw ticketMissing(ticketId);
  if (t.unreadMessages === 0) return t;
  return await deskOf(system, companyId).ask("read", { id: ticketId });
}

/**
 * Moves a ticket to `queueId` without a user's action (the chatbot's queue menu); the status
 * stays as it is. Publishes `removeFromList` for the old queue's lists and the update.
 */
export async function moveTicketToQueue(
  system: ActorSystem,
  companyId: number,
  ticketId: number,
  queueId: number | null,
): Promise<Ticket> {
  return await deskOf(system, companyId).ask("queue", { id: ticketId, queueId });
}

/** Sets the customer's rating answer on the ticket and publishes the update (actors/ratings). */
export async function setTicketRating(
  system: ActorSystem,
  companyId: number,
  ticketId: number,
  answer: { ratingId: number; rating: number },
): Promise<Ticket> {
  return await deskOf(system, companyId).ask("rate", { id: ticketId, ...answer });
}

/** Replaces the ticket's tags and publishes the update (used by the tags area). */
export async function setTicketTags(
  system: ActorSystem,
  companyId: number,
  ticketId: number,
  tagIds: number[],
): Promise<Ticket> {
  return await deskOf(system, companyId).ask("tags", { id: ticketId, tagIds });
}

/** Moves every ticket of contact `fromId` to `intoId` (after a contact merge). */
export async function moveContactTickets(
  system: ActorSystem,
  companyId: number,
  fromId: number,
  intoId: number,
): Promise<number> {
  return await deskOf(system, companyId).ask("moveContact", { fromId, intoId });
}

/** The contact's tickets, newest first. */
export async function ticketsByContact(
  system: ActorSystem,
  companyId: number,
  contactId: number,
): Promise<Ticket[]> {
  const { index } = await deskState(system, companyId);
  const ids = index.byContact.get(contactId) ?? [];
  const out: Ticket[] = [];
  for (const id of ids) out.push(index.byId.get(id)!);
  return out.sort((a, b) => b.updatedAt - a.updatedAt || b.id - a.id);
}

/** The contact's open or pending ticket (on any connection; the newest), or undefined. */
export async function activeTicketOfContact(
  system: ActorSystem,
  companyId: number,
  contactId: number,
): Promise<Ticket | undefined> {
  const tickets = await ticketsByContact(system, companyId, contactId);
  return tickets.find((t) => t.status === "open") ?? tickets.find((t) => t.status === "pending");
}

/** How many tickets carry each tag (tag id → count). */
export async function tagTicketCounts(
  system: ActorSystem,
  companyId: number,
): Promise<Map<number, number>> {
  const { index } = await deskState(system, companyId);
  const counts = new Map<number, number>();
  for (const [tagId, ids] of index.byTag) counts.set(tagId, ids.size);
  return counts;
}

/** How many tickets point to each opportunity (opportunity id → count), from the desk's index. */
export async function oportunidadeTicketCounts(
  system: ActorSystem,
  companyId: number,
): Promise<Map<number, number>> {
  const { index } = await deskState(system, companyId);
  const counts = new Map<number, number>();
  for (const [id, ids] of index.byOportunidade) counts.set(id, ids.size);
  return counts;
}

/** Activates the desk (loads the company's tickets and builds the indexes). */
export async function warmTickets(system: ActorSystem, companyId: number): Promise<void> {
  await deskState(system, companyId);
  // A first snapshot, or a new one when the start replayed many changes (record_snapshot.ts).
  await deskOf(system, companyId).ask("snapshotIfDue", null);
}
