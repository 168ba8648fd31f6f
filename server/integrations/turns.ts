/**
 * The turn of a ticket waiting in a queue with an external bot (issue #17; Typebot or n8n,
 * domain/queue_bot.ts): the inbound path calls `handleQueueBotTurn` for each customer message;
 * the ticket's bot-session actor (actors/bot_sessions) serializes the turns and keeps the
 * session; the port bound here calls the service and delivers what it answered.
 *
 * Delivery: the bot's texts go to the customer in order. A failed call (timeout, HTTP error,
 * unreadable answer, missing settings) sends the customer INTEGRATION_FALLBACK_TEXT and leaves
 * the agents an `integrationFailed` note naming the reason; a flow that ends leaves a
 * `botFinished` note. Either way the session ends and the ticket stays pending in its queue,
 * so agents see it and the customer's next messages wait for them, never for a dead bot.
 */
import { bindBotTurns, type BotSession, botSessionRef, type BotTurnInput, type BotTurnResult } from "../../actors/bot_sessions/mod.ts";
import { sendSystemMessage } from "../../actors/messages/mod.ts";
import { queues } from "../../actors/queues/collection.ts";
import { recordBotNote } from "../../actors/ticket_tracking/mod.ts";
import { getTicket, ticketNow } from "../../actors/tickets/mod.ts";
import type { ActorSystem } from "../../actors/_runtime/system.ts";
import { botServiceName, queueBot } from "../../domain/queue_bot.ts";
import type { Ticket } from "../../domain/ticket.ts";
import { INTEGRATION_FALLBACK_TEXT } from "../../domain/typebot.ts";
import type { AppDeps } from "../deps.ts";
import { askN8n } from "./n8n.ts";
import { aiMarked } from "../../domain/ai_prompt.ts";
import { askAiBot } from "../ai/suggest.ts";
import { type ServiceOutcome, typebotCall } from "./typebot.ts";
import { log } from "../../actors/_runtime/log.ts";

/** Binds the bot-session actor's port to `deps` (idempotent). */
export function bindIntegrations(deps: AppDeps): void {
  bindBotTurns(deps.system, (session, input) => runTurn(deps, session, input));
}

/** Whether `ticket` waits for the bot: pending, with no agent. */
function waitsForBot(ticket: Ticket): boolean {
  return ticket.status === "pending" && ticket.userId === null && !ticket.isGroup;
}

/**
 * Sends a customer's message of `ticket` to its queue's bot when the ticket waits in a bot
 * queue (starting the bot when it has just entered the queue); true when the bot took it, so
 * the caller's own replies (menus, greetings) stand down. A ticket an agent holds drops its
 * bot session. Never throws.
 */
export async function handleQueueBotTurn(
  deps: AppDeps,
  ticket: { companyId: number; id: number },
  message: { body: string; fromMe?: boolean; isGroup?: boolean },
): Promise<boolean> {
  if (message.fromMe || message.isGroup) return false;
  try {
    const current = await getTicket(deps.system, ticket.companyId, ticket.id);
    if (!current || current.queueId === null) return false;
    const queue = await queues.in(deps.system, current.companyId).get(current.queueId);
    const bot = queue ? queueBot(queue) : null;
    if (!bot) return false;
    bindIntegrations(deps);
    const ref = botSessionRef(deps.system, current.companyId, current.id);
    if (!waitsForBot(current)) {
      await ref.ask("drop", undefined);
      return false;
    }
    const result = await ref.ask("turn", {
      companyId: current.companyId,
      ticketId: current.id,
      queueId: current.queueId,
      service: bot.service,
      text: message.body,
    });
    return result.handled;
  } catch (error) {
    log.error(`The bot turn of ticket ${ticket.id} failed`, { error });
    return false;
  }
}

/**
 * True when ticket `ticketId` surely has no bot turn (no queue, or a queue without a bot), read
 * from memory without a turn of the loop; false when unsure (`handleQueueBotTurn` decides).
 */
export function noBotTurnNow(system: ActorSystem, companyId: number, ticketId: number): boolean {
  const ticket = ticketNow(system, companyId, ticketId);
  if (ticket === null) return false;
  if (ticket === undefined || ticket.queueId === null) return true;
  const records = queues.in(system, companyId).recordsNow();
  if (!records) return false;
  const queue = records.get(ticket.queueId);
  return !queue || queueBot(queue) === null;
}

/** The port: one turn of the bot-session actor (see the module doc). */
async function runTurn(deps: AppDeps, session: BotSession | null, input: BotTurnInput): Promise<BotTurnResult> {
  const { system } = deps;
  const ticket = await getTicket(system, input.companyId, input.ticketId);
  const queue = ticket?.queueId === input.queueId ? await queues.in(system, input.companyId).get(input.queueId) : undefined;
  const bot = queue ? queueBot(queue) : null;
  // The ticket moved on while this turn waited for the previous one.
  if (!ticket || !bot || bot.service !== input.service || !waitsForBot(ticket)) return { session: null, handled: false };
  const same = session?.queueId === input.queueId && session.service === input.service ? session : null;
  if (same?.status === "ended") return { session: same, handled: false };
  const outcome: ServiceOutcome = bot.service === "typebot"
    ? await typebotCall(deps, same, input, bot.typebotId)
    : bot.service === "n8n"
    ? await n8nCall(deps, same, input, bot.url)
    : await aiCall(deps, same, input);
  return { session: await deliver(deps, ticket, outcome), handled: true };
}

/** n8n keeps no session: each customer message is one call; a reply is sent, the bot goes on. */
async function n8nCall(deps: AppDeps, session: BotSession | null, input: BotTurnInput, url: string): Promise<ServiceOutcome> {
  const next: BotSession = session ?? {
    v: 1,
    service: "n8n",
    queueId: input.queueId,
    status: "running",
    sessionId: null,
    choices: [],
    updatedAt: deps.system.now(),
  };
  const answer = await askN8n(deps, { companyId: input.companyId, ticketId: input.ticketId, url, text: input.text ?? "" });
  return answer.ok
    ? { session: { ...next, updatedAt: deps.system.now() }, texts: [answer.text], ended: false, error: null }
    : { session: next, texts: [], ended: true, error: answer.error };
}

/**
 * The AI module answers (issue #20) like n8n: no session of its own, one call per customer
 * message (the model reads the last 20 messages, this one included), the answer marked as the
 * AI's; a failure ends the bot for the ticket like any integration's.
 */
async function aiCall(deps: AppDeps, session: BotSession | null, input: BotTurnInput): Promise<ServiceOutcome> {
  const next: BotSession = session ??
    { v: 1, service: "ai", queueId: input.queueId, status: "running", sessionId: null, choices: [], updatedAt: deps.system.now() };
  // A ticket just moved into the queue (no customer text) waits for the customer's next message.
  if (input.text === null) return { session: next, texts: [], ended: false, error: null };
  const answer = await askAiBot(deps, input.companyId, input.ticketId);
  return answer.ok
    ? { session: { ...next, updatedAt: deps.system.now() }, texts: [aiMarked(answer.text)], ended: false, error: null }
    : { session: next, texts: [], ended: true, error: answer.error };
}

/** Sends the outcome's texts (or the fallback) and leaves the agents' note; the session after it. */
async function deliver(deps: AppDeps, ticket: Ticket, outcome: ServiceOutcome): Promise<BotSession> {
  const name = botServiceName(outcome.session.service);
  const send = (text: string) => sendSystemMessage(deps, ticket.companyId, ticket.id, text);
  try {
    for (const text of outcome.texts) await send(text);
    if (outcome.error !== null) {
      log.warn(`${name} failed for ticket ${ticket.id}: ${outcome.error}`);
      await send(INTEGRATION_FALLBACK_TEXT);
      await recordBotNote(deps.system, ticket, "integrationFailed", `${name} (${outcome.error})`);
    } else if (outcome.ended) {
      await recordBotNote(deps.system, ticket, "botFinished", name);
    }
  } catch (error) {
    // Our own store or channel failed mid-delivery: the bot stops, agents take the ticket.
    log.error(`Delivering the ${name} answer of ticket ${ticket.id} failed`, { error });
    return { ...outcome.session, status: "ended", updatedAt: deps.system.now() };
  }
  return outcome.ended || outcome.error !== null
    ? { ...outcome.session, status: "ended", updatedAt: deps.system.now() }
    : outcome.session;
}
