/**
 * The conversation engine's I/O (issue #17): for one stored customer message, loads what the
 * decision reads (context.ts), has the ticket's conversation actor decide it
 * (domain/conversation.ts, actors/conversations/), then performs the actions in order —
 * texts and menus, queue moves, assignment to a user, the n8n integration, the agent's
 * system lines and the place in line.
 */
import { conversationOf, replyIsQuiet } from "../../actors/conversations/mod.ts";
import { recordBotNote } from "../../actors/ticket_tracking/mod.ts";
import { getTicket, moveTicketToQueue, ticketNow } from "../../actors/tickets/mod.ts";
import { companySettings, companySettingsNow } from "../../actors/platform/lookup.ts";
import type { ActorSystem } from "../../actors/_runtime/system.ts";
import type { Ticket } from "../../domain/ticket.ts";
import type { ConversationAction } from "../../domain/conversation.ts";
import type { InboundMessage } from "../../domain/channel.ts";
import type { Principal } from "../../domain/permissions.ts";
import type { Whatsapp } from "../../domain/whatsapp.ts";
import type { AppDeps } from "../deps.ts";
import { loadContext } from "./context.ts";
import { askIntegration } from "./n8n_option.ts";
import { sendBot } from "../usecases/bot_send.ts";
import { tellPosition } from "../usecases/queue_position.ts";
import { transitionTicket } from "../usecases/ticket_transition.ts";
import { log } from "../../actors/_runtime/log.ts";

/** Runs the engine for a customer's message stored in ticket `ticketId`. */
export async function converseInbound(
  deps: AppDeps,
  connection: Whatsapp,
  message: InboundMessage,
  result: { ticketId: number; ticketCreated: boolean },
): Promise<void> {
  const { system } = deps;
  const { companyId } = connection;
  const ticket = await getTicket(system, companyId, result.ticketId);
  if (!ticket) return;
  const { scheduleType } = await companySettings(system, companyId);
  if (engineStandsBy(system, connection, ticket, result.ticketCreated, scheduleType)) return;
  // The system's clock, not the wall's: a replayed conversation (server/seed/history) is
  // judged against the hours of the day it replays.
  const context = await loadContext(system, connection, ticket, system.now());
  const conversation = conversationOf(system, companyId, ticket.id);
  // A ticket opened by this message has no conversation stored: none to read.
  if (result.ticketCreated) conversation.created();
  const step = await conversation.ask("step", {
    input: { type: result.ticketCreated ? "new" : "reply", text: message.body },
    context,
  });
  await perform(deps, companyId, ticket.id, step.actions);
}

/**
 * Whether a customer's message on `ticket` surely needs no turn of the engine (read from
 * memory; the inbound path asks it without a turn of the loop, `engineStandsByNow`).
 */
function engineStandsBy(
  system: ActorSystem,
  connection: Whatsapp,
  ticket: Ticket,
  created: boolean,
  scheduleType: string | undefined,
): boolean {
  // A closed ticket only takes a message that is a rating answer (actors/ratings): no bot.
  if (ticket.status === "closed") return true;
  if (ticket.status !== "open" && created) return false;
  // An open ticket only meets the bot for out-of-hours replies: without hours set, one
  // settings read decides, and the whole context (queues, options, hours) is never built.
  if (ticket.status === "open" && scheduleType === "disabled") return true;
  // Most replies change nothing (no hours to keep, no menu open or to reopen): told from the
  // idle conversation and that setting, with no context built and no message to the actor.
  return !created && replyIsQuiet(system, connection.companyId, ticket, scheduleType, connection.queueIds.length);
}

/**
 * `engineStandsBy` for ticket `ticketId` without a turn of the loop: false when unsure (the
 * desk, the settings or the conversation not in memory), and `converseInbound` decides.
 */
export function engineStandsByNow(system: ActorSystem, connection: Whatsapp, ticketId: number, created: boolean): boolean {
  const ticket = ticketNow(system, connection.companyId, ticketId);
  if (!ticket) return ticket === undefined; // undefined: no such ticket, nothing to converse
  const settings = companySettingsNow(system, connection.companyId);
  return settings !== undefined && engineStandsBy(system, connection, ticket, created, settings.scheduleType);
}

/** Performs the actions of one decision in order; a failed one is logged and the rest go on. */
async function perform(deps: AppDeps, companyId: number, ticketId: number, actions: ConversationAction[]): Promise<void> {
  for (const action of actions) {
    try {
      await performOne(deps, companyId, ticketId, action);
    } catch (error) {
      log.error(`The ${action.type} action of ticket ${ticketId}'s conversation failed`, { error });
    }
  }
}

/** The bot acts with a manager's rights in its company (it assigns as an admin would). */
function botPrincipal(companyId: number): Principal {
  return { id: 0, companyId, profile: "admin", super: false, queueIds: [] };
}

async function performOne(deps: AppDeps, companyId: number, ticketId: number, action: ConversationAction): Promise<void> {
  const { system } = deps;
  switch (action.type) {
    case "send":
      await sendBot(deps, companyId, ticketId, action);
      return;
    case "moveQueue":
      await moveTicketToQueue(system, companyId, ticketId, action.queueId);
      return;
    case "track": {
      const ticket = await getTicket(system, companyId, ticketId);
      if (ticket) await recordBotNote(system, ticket, "chatbot", action.detail);
      return;
    }
    case "assign": {
      // The bot hands the ticket to a user: its note says nobody did it.
      await transitionTicket(deps, {
        id: ticketId,
        body: { status: "open", userId: action.userId },
        who: botPrincipal(companyId),
        settings: await companySettings(system, companyId),
        byUserId: null,
      });
      return;
    }
    case "position":
      await tellPosition(deps, companyId, ticketId, action.queueId);
      return;
    case "n8n":
      return await askIntegration(deps, companyId, ticketId, action);
  }
}
