/**
 * The customer's place in line (setting sendQueuePosition): told when the conversation enters
 * a queue, and told again as the queue moves — when a waiting ticket of the queue is taken,
 * closed, moved or deleted — but only to the first few in line whose place improved
 * (domain/conversation.ts retellPosition), so nobody gets one message per ticket ahead.
 * The place is the number of waiting tickets of the queue that came in before, plus one.
 */
import { conversationOf } from "../../actors/conversations/mod.ts";
import { companySettings } from "../../actors/platform/lookup.ts";
import { deskState } from "../../actors/tickets/mod.ts";
import type { ActorSystem } from "../../actors/_runtime/system.ts";
import { RETELL_POSITION_UP_TO } from "../../domain/conversation.ts";
import { positionText } from "../../domain/conversation_texts.ts";
import type { BusEvent } from "../../domain/events.ts";
import { settingOn } from "../../domain/settings.ts";
import type { Ticket } from "../../domain/ticket.ts";
import type { AppDeps } from "../deps.ts";
import type { EffectStep } from "../../domain/ticket_effects.ts";
import { sendBot } from "./bot_send.ts";
import { log } from "../../actors/_runtime/log.ts";

const arrival = (a: Ticket, b: Ticket) => a.createdAt - b.createdAt || a.id - b.id;

/** The waiting tickets of `queueId` in order of arrival. */
async function line(system: ActorSystem, companyId: number, queueId: number): Promise<Ticket[]> {
  const { index } = await deskState(system, companyId);
  const list = index.byQueue.pending.get(queueId);
  if (!list) return [];
  return list.slice(0, list.length).filter((t) => t.userId === null).sort(arrival);
}

/** Tells ticket `ticketId` its place in `queueId` now (when it waits there). */
export async function tellPosition(
  deps: AppDeps,
  companyId: number,
  ticketId: number,
  queueId: number,
  effect?: EffectStep,
): Promise<boolean> {
  const waiting = await line(deps.system, companyId, queueId);
  const at = waiting.findIndex((t) => t.id === ticketId);
  if (at < 0) return false;
  const told = await conversationOf(deps.system, companyId, ticketId).ask("position", { queueId, n: at + 1, onlyIfBetter: false });
  return told && await sendBot(deps, companyId, ticketId, { text: positionText(at + 1) }, effect);
}

/** The queue moved: tells the first few in line their better place. */
export async function queueMoved(deps: AppDeps, companyId: number, queueId: number): Promise<void> {
  const settings = await companySettings(deps.system, companyId);
  if (!settingOn(settings.sendQueuePosition)) return;
  const first = (await line(deps.system, companyId, queueId)).slice(0, RETELL_POSITION_UP_TO);
  await Promise.all(first.map(async (t, i) => {
    const told = await conversationOf(deps.system, companyId, t.id).ask("position", { queueId, n: i + 1, onlyIfBetter: true });
    if (told) await sendBot(deps, companyId, t.id, { text: positionText(i + 1) });
  }));
}

/**
 * The queue a ticket event says moved: a waiting ticket left its list (taken, closed, moved,
 * deleted). The event's scope is the ticket before the change (actors/tickets/actor.ts).
 */
export function movedQueue(event: BusEvent): { companyId: number; queueId: number } | null {
  if (event.companyId === null || !event.channel.endsWith("-ticket") || event.scope.kind !== "ticket") return null;
  const action = (event.data as { action?: string }).action;
  if (action !== "removeFromList" && action !== "delete") return null;
  const { status, queueId } = event.scope;
  return status === "pending" && queueId !== null ? { companyId: event.companyId, queueId } : null;
}

/** Follows the ticket events of this server to keep places in line told; returns the unsubscribe. */
export function watchQueuePositions(deps: AppDeps): () => void {
  return deps.bus.subscribe((event) => {
    const moved = movedQueue(event);
    if (!moved) return;
    queueMoved(deps, moved.companyId, moved.queueId).catch((error) =>
      log.error(`Updating the places in line of queue ${moved.queueId} failed`, { error })
    );
  });
}
