/**
 * The inbound path of a connection (issue #4): an adapter's message → numbers in
 * `ignoreNumbers` dropped → the messages area stores it (contact, ticket, dedup by provider
 * id) → the connection's behaviour for a conversation: out-of-hours message, greeting with
 * the queue menu and the customer's menu choice → the connection's webhook (fire and forget).
 */
import type { ActorSystem } from "../../actors/_runtime/system.ts";
import { contactsActor, findContactByNumber, mergeContacts, updateContact } from "../../actors/contacts/mod.ts";
import type { ContactsState } from "../../actors/contacts/state.ts";
import { receiveInbound, sendSystemMessage } from "../../actors/messages/mod.ts";
import { companySettings, getCompany } from "../../actors/platform/lookup.ts";
import { queues } from "../../actors/queues/collection.ts";
import { sessionRef } from "../../actors/sessions/mod.ts";
import type { SessionState } from "../../actors/sessions/state.ts";
import { whatsapps } from "../../actors/whatsapps/collection.ts";
import { getTicket, moveContactTickets, moveTicketToQueue } from "../../actors/tickets/mod.ts";
import type { InboundMessage } from "../../domain/channel.ts";
import { menuChoice, queueMenu } from "../../domain/chatbot.ts";
import type { Queue } from "../../domain/queue.ts";
import { localClock, outOfHours } from "../../domain/schedule_hours.ts";
import { settingOn } from "../../domain/settings.ts";
import { ignoredNumbers, type Whatsapp } from "../../domain/whatsapp.ts";
import type { AppDeps } from "../deps.ts";
import { postWebhook } from "./webhook.ts";
import { handleQueueBotTurn } from "../integrations/turns.ts";

/** Where the inbound path runs for one connection. */
export interface InboundSession {
  companyId: number;
  whatsappId: number;
}

/** What the messages area reported for the stored message (null: dropped by ignoreNumbers). */
export type InboundResult = Awaited<ReturnType<typeof receiveInbound>> | null;

/** Runs one inbound message through the connection's path; resolves once it is stored. */
export async function handleInbound(
  deps: AppDeps,
  session: InboundSession,
  message: InboundMessage,
): Promise<InboundResult> {
  const { system } = deps;
  const { companyId, whatsappId } = session;
  const record = await whatsapps.in(system, companyId).get(whatsappId);
  if (!record) return null;
  if (!message.fromMe && isIgnored(record, message)) return null;
  const result = await receiveInbound(deps, companyId, whatsappId, message);
  if (result.duplicate) return result;
  postWebhook(record, message, result);
  if (!message.fromMe && !message.isGroup) {
    await converse(deps, record, message, result).catch((error) =>
      console.error(`Connection behaviour for ticket ${result.ticketId} failed:`, error)
    );
    await handleQueueBotTurn(deps, { companyId, id: result.ticketId }, message);
  }
  return result;
}

function isIgnored(record: Whatsapp, message: InboundMessage): boolean {
  if (!record.ignoreNumbers) return false;
  const ignored = ignoredNumbers(record.ignoreNumbers);
  return ignored.has(message.from) ||
    (message.participant !== undefined && ignored.has(message.participant.number));
}

/** The connection's queues in menu order (prioridade, then id). */
async function connectionQueues(system: ActorSystem, record: Whatsapp): Promise<Queue[]> {
  const all = await queues.in(system, record.companyId).records();
  return record.queueIds.map((id) => all.get(id)).filter((q): q is Queue => q !== undefined)
    .sort((a, b) => a.prioridade - b.prioridade || a.id - b.id);
}

/** Out-of-hours, greeting and menu behaviour of one conversation. */
async function converse(
  deps: AppDeps,
  record: Whatsapp,
  message: InboundMessage,
  result: { ticketId: number; ticketCreated: boolean },
): Promise<void> {
  const { system } = deps;
  const { companyId } = record;
  const session = sessionRef(system, companyId, record.id);
  if (!result.ticketCreated) {
    // Most messages belong to no open menu: read the session's state without its mailbox.
    const peeked = await session.peek<SessionState>();
    if (!peeked.menus[String(result.ticketId)]) return;
    const open = await session.ask("menuOf", { ticketId: result.ticketId, consume: false });
    if (!open) return;
    const ticket = await getTicket(system, companyId, result.ticketId);
    if (!ticket || ticket.status !== "pending" || ticket.userId !== null || ticket.queueId !== null) {
      // An agent took the conversation, or it already has a queue: the menu is over, and what
      // the customer writes now is for the agent, not an invalid menu option.
      await session.ask("menuOf", { ticketId: result.ticketId, consume: true });
      return;
    }
    const list = await connectionQueues(system, record);
    const offered = open.map((id) => list.find((q) => q.id === id)).filter((q): q is Queue => !!q);
    const choice = menuChoice(message.body, offered);
    if (!choice) {
      await sendSystemMessage(deps, companyId, result.ticketId, queueMenu(record.greetingMessage, offered));
      return;
    }
    await session.ask("menuOf", { ticketId: result.ticketId, consume: true });
    await moveTicketToQueue(system, companyId, result.ticketId, choice.id);
    const queue = list.find((q) => q.id === choice.id);
    if (queue?.greetingMessage) await sendSystemMessage(deps, companyId, result.ticketId, queue.greetingMessage);
    return;
  }
  const list = await connectionQueues(system, record);
  const settings = await companySettings(system, companyId);
  const company = await getCompany(system, companyId);
  const only = list.length === 1 ? list[0] : undefined;
  const closed = (settings.scheduleType === "company" || settings.scheduleType === "queue") && outOfHours(
    settings.scheduleType,
    { schedules: company?.schedules ?? [], lunchHour: company?.lunchHour ?? null },
    only,
    localClock(Date.now()),
  );
  if (closed) {
    const text = (settings.scheduleType === "queue" ? only?.outOfHoursMessage : "") || record.outOfHoursMessage;
    if (text) await sendSystemMessage(deps, companyId, result.ticketId, text);
    return;
  }
  if (list.length > 1) {
    await session.ask("openMenu", { ticketId: result.ticketId, queueIds: list.map((q) => q.id) });
    await sendSystemMessage(deps, companyId, result.ticketId, queueMenu(record.greetingMessage, list));
  } else if (record.greetingMessage && settingOn(settings.sendGreetingMessageOneQueues)) {
    await sendSystemMessage(deps, companyId, result.ticketId, record.greetingMessage);
  }
}

/**
 * Baileys revealed that `lid` is `number`: one contact per person. A contact created under the
 * LID (number "") is merged into the one with the number, or learns the number when there is
 * none; a contact with the number learns its LID.
 */
export async function linkLid(system: ActorSystem, companyId: number, lid: string, number: string): Promise<void> {
  const state = await system.ref(contactsActor, companyId).peek<ContactsState>();
  const lidId = state.byLid.get(lid);
  const byLid = lidId === undefined ? undefined : state.contacts.get(lidId);
  const byNumber = await findContactByNumber(system, companyId, number);
  if (byLid && byNumber && byLid.id !== byNumber.id) {
    // Tickets (and with them their messages) move first, so none points at a deleted contact.
    await moveContactTickets(system, companyId, byLid.id, byNumber.id);
    await mergeContacts(system, companyId, byLid.id, byNumber.id);
  } else if (byLid && !byNumber) {
    await updateContact(system, companyId, byLid.id, { number });
  } else if (byNumber && !byLid && byNumber.lid !== lid) {
    await updateContact(system, companyId, byNumber.id, { lid });
  }
}
