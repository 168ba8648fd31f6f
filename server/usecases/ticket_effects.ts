/**
 * Applies a ticket transition's effects (domain/ticket_effects.ts, issue #39): the messages a
 * transition owes the customer, which the ticket desk wrote as an intent in the transition's
 * own atomic. Each step is applied once: its message is stored (with its outbox entry) and the
 * step marked done in one atomic (actors/tickets/effects.ts), a step that sends nothing is
 * marked done alone, and the intent is deleted when every step is. A stop in between leaves
 * the rest to the desk's retry timer, on this process or the one that takes the company over.
 *
 * The texts (spec 000 §4, spec 001 §3 settings):
 * - greeting (accept, sendGreetingAccepted): "Olá *{contact}*, meu nome é *{user}*…";
 * - farewell (resolve, unless closed without it): the user's farewell message, else the
 *   connection's completion message; none when both are empty;
 * - rating survey (resolve with userRating on): rating_survey.ts;
 * - transfer alert (sendTransferAlert), the farewell of a waiting ticket closed
 *   (sendFarewellWaitingTicket), the place in line (sendQueuePosition: queue_position.ts);
 * - an auto-close's close message (the connection's closeMessage).
 * Variables are filled on the way out (actors/messages/outbound.ts).
 */
import { getContact } from "../../actors/contacts/mod.ts";
import { sendSystemMessage } from "../../actors/messages/mod.ts";
import { companySettings, getCompanyUser } from "../../actors/platform/lookup.ts";
import { queues } from "../../actors/queues/collection.ts";
import { deskOf, deskState } from "../../actors/tickets/mod.ts";
import { whatsapps } from "../../actors/whatsapps/collection.ts";
import type { ActorSystem } from "../../actors/_runtime/system.ts";
import { transferText } from "../../domain/conversation_texts.ts";
import { settingOn } from "../../domain/settings.ts";
import type { EffectIntent, EffectStep, EffectStepKind } from "../../domain/ticket_effects.ts";
import type { Ticket } from "../../domain/ticket.ts";
import type { AppDeps } from "../deps.ts";
import { tellPosition } from "./queue_position.ts";
import { surveyOnResolve } from "./rating_survey.ts";
import { log } from "../../actors/_runtime/log.ts";

/** The runs under way in a system, by intent id: one run of an intent at a time. */
const runs = new WeakMap<ActorSystem, Map<string, Promise<void>>>();

/**
 * Applies the steps of `intent` not done yet, in order; resolves when they are (or one failed:
 * the retry timer brings the intent back). Never throws.
 */
export function applyEffects(deps: AppDeps, intent: EffectIntent): Promise<void> {
  let ofSystem = runs.get(deps.system);
  if (!ofSystem) runs.set(deps.system, ofSystem = new Map());
  const running = ofSystem.get(intent.id);
  if (running) return running;
  const run = applyAll(deps, intent).finally(() => ofSystem!.delete(intent.id));
  ofSystem.set(intent.id, run);
  return run;
}

async function applyAll(deps: AppDeps, intent: EffectIntent): Promise<void> {
  const companyId = intent.after.companyId;
  const desk = deskOf(deps.system, companyId);
  for (let step = 0; step < intent.steps.length; step++) {
    // What is done is the desk's word (an earlier run may have got further than `intent` says).
    const current = (await deskState(deps.system, companyId)).intents.get(intent.id);
    if (!current) return;
    if (current.done.includes(step)) continue;
    const marker: EffectStep = { intentId: intent.id, step };
    try {
      const sent = await applyStep(deps, intent, intent.steps[step], marker);
      if (!sent) await desk.ask("effectStep", marker);
    } catch (error) {
      log.error(`Step ${step} (${intent.steps[step].kind}) of ticket ${intent.ticketId}'s effects failed; retried later`, { error });
      return;
    }
  }
  await desk.ask("effectsDone", { id: intent.id });
}

/** Sends step `kind`'s message marked `marker`; false when it has none to send. */
async function applyStep(deps: AppDeps, intent: EffectIntent, kind: EffectStepKind, marker: EffectStep): Promise<boolean> {
  const { system } = deps;
  const ticket = intent.after;
  const { companyId } = ticket;
  const send = async (text: string) => {
    if (!text.trim()) return false;
    await sendSystemMessage(deps, companyId, ticket.id, text.trim(), marker);
    return true;
  };
  switch (kind.kind) {
    case "greeting": {
      const user = ticket.userId === null ? undefined : await getCompanyUser(system, companyId, ticket.userId);
      if (!user) return false;
      const contact = await getContact(system, companyId, ticket.contactId);
      return await send(`Olá *${contact?.name ?? ""}*, meu nome é *${user.name}* e agora vou prosseguir com seu atendimento!`);
    }
    case "farewell": {
      const user = ticket.userId === null ? undefined : await getCompanyUser(system, companyId, ticket.userId);
      return await send(user?.farewellMessage?.trim() || (await connectionOf(deps, ticket))?.complationMessage?.trim() || "");
    }
    case "closeMessage":
      return await send(kind.text);
    case "survey":
      return await surveyOnResolve(deps, ticket, kind.ratingId, marker);
    case "transferAlert": {
      if (!settingOn((await companySettings(system, companyId)).sendTransferAlert)) return false;
      const [queue, user] = await Promise.all([
        ticket.queueId === null ? undefined : queues.in(system, companyId).get(ticket.queueId),
        ticket.userId === null ? undefined : getCompanyUser(system, companyId, ticket.userId),
      ]);
      return await send(transferText(queue?.name ?? null, user?.name ?? null));
    }
    case "waitingFarewell": {
      if (!settingOn((await companySettings(system, companyId)).sendFarewellWaitingTicket)) return false;
      return await send((await connectionOf(deps, ticket))?.complationMessage ?? "");
    }
    case "queuePosition": {
      if (!settingOn((await companySettings(system, companyId)).sendQueuePosition) || ticket.queueId === null) return false;
      return await tellPosition(deps, companyId, ticket.id, ticket.queueId, marker);
    }
  }
}

function connectionOf(deps: AppDeps, ticket: Ticket) {
  return ticket.whatsappId === null ? undefined : whatsapps.in(deps.system, ticket.companyId).get(ticket.whatsappId);
}
