/**
 * The inbound path of a connection (issue #4): an adapter's message → numbers in
 * `ignoreNumbers` dropped, and group messages when `CheckMsgIsGroup` is on → the messages
 * area stores it (contact, ticket, dedup by provider id) → the connection's webhook (fire and
 * forget) → the conversation engine for a customer's message (greeting, queue menu, bot tree,
 * opening hours: server/conversation/).
 */
import type { ActorSystem } from "../../actors/_runtime/system.ts";
import { contactsActor, findContactByNumber, mergeContacts, updateContact } from "../../actors/contacts/mod.ts";
import type { ContactsState } from "../../actors/contacts/state.ts";
import { receiveInbound } from "../../actors/messages/mod.ts";
import { settings } from "../../actors/platform/collections.ts";
import { whatsapps } from "../../actors/whatsapps/collection.ts";
import { moveContactTickets } from "../../actors/tickets/mod.ts";
import { campaignReply } from "../../actors/campaigns/mod.ts";
import type { InboundMessage } from "../../domain/channel.ts";
import { SETTING_DEFAULTS, settingOn } from "../../domain/settings.ts";
import { ignoredNumbers, type Whatsapp } from "../../domain/whatsapp.ts";
import type { AppDeps } from "../deps.ts";
import { converseInbound, engineStandsByNow } from "../conversation/engine.ts";
import { postWebhook } from "./webhook.ts";
import { handleQueueBotTurn, noBotTurnNow } from "../integrations/turns.ts";
import { awaitsRatingNow } from "../../actors/ratings/mod.ts";
import { isPositiveConfirmation } from "../../domain/campaign.ts";
import { takeRatingReply } from "../ratings/reply.ts";
import { log } from "../../actors/_runtime/log.ts";

/** Where the inbound path runs for one connection. */
export interface InboundSession {
  companyId: number;
  whatsappId: number;
}

/** What the messages area reported for the stored message (null: dropped by ignoreNumbers or CheckMsgIsGroup). */
export type InboundResult = Awaited<ReturnType<typeof receiveInbound>> | null;

/** Runs one inbound message through the connection's path; resolves once it is stored. */
export async function handleInbound(
  deps: AppDeps,
  session: InboundSession,
  message: InboundMessage,
  /** Called once the message is durable, before the bot's turn (server/api/simulator.ts waits for it). */
  onStored?: () => void,
): Promise<InboundResult> {
  const { system } = deps;
  const { companyId, whatsappId } = session;
  const record = await whatsapps.in(system, companyId).get(whatsappId);
  if (!record) return null;
  if (!message.fromMe && isIgnored(record, message)) return null;
  if (message.isGroup && await ignoresGroups(system, companyId)) return null;
  const result = await receiveInbound(deps, companyId, whatsappId, message);
  onStored?.();
  if (result.duplicate) return result;
  postWebhook(system, record, message, result);
  // The rest answers a customer: not the company's own messages, nor a group's.
  if (message.fromMe || message.isGroup) return result;
  if (nothingToAnswer(system, record, message, result)) return result;
  if (await campaignReply(system, companyId, message.from, message.body)) return result;
  if (await takeRatingReply(deps, companyId, result.ticketId, message)) return result;
  await converseInbound(deps, record, message, result).catch((error) =>
    log.error(`The conversation of ticket ${result.ticketId} failed:`, { error })
  );
  await handleQueueBotTurn(deps, { companyId, id: result.ticketId }, message);
  return result;
}

/**
 * True when a customer's message surely needs nothing of the calls above (no campaign
 * confirmation, no rating awaited, the engine standing by, no bot), told from memory without
 * a turn of the loop: most messages of a conversation under way, which then cost no promise
 * of those calls (issue #34). False when unsure: the calls decide.
 */
function nothingToAnswer(system: ActorSystem, record: Whatsapp, message: InboundMessage, result: { ticketId: number; ticketCreated: boolean }): boolean {
  const { companyId } = record;
  return !isPositiveConfirmation(message.body) &&
    awaitsRatingNow(system, companyId, result.ticketId) === false &&
    engineStandsByNow(system, record, result.ticketId, result.ticketCreated) &&
    noBotTurnNow(system, companyId, result.ticketId);
}

function isIgnored(record: Whatsapp, message: InboundMessage): boolean {
  if (!record.ignoreNumbers) return false;
  const ignored = ignoredNumbers(record.ignoreNumbers);
  return ignored.has(message.from) ||
    (message.participant !== undefined && ignored.has(message.participant.number));
}

/** Setting CheckMsgIsGroup ("Ignorar mensagens de grupos"): group messages are not stored. */
async function ignoresGroups(system: ActorSystem, companyId: number): Promise<boolean> {
  for (const s of (await settings.in(system, companyId).records()).values()) {
    if (s.key === "CheckMsgIsGroup") return settingOn(s.value);
  }
  return settingOn(SETTING_DEFAULTS.CheckMsgIsGroup);
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
