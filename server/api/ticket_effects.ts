/**
 * The messages a ticket transition sends (spec 000 §4): the greeting when a user accepts a
 * ticket and setting sendGreetingAccepted is on, and the farewell when a ticket is resolved
 * unless the user chose to close without it (sendFarewellMessage false). The farewell is the
 * user's own farewell message, else the connection's completion message; none when both are
 * empty. Sent after the transition is durable; a failed send is logged, never undoes it.
 * Given the ticket before the change and who made it, the transition also leaves its
 * tracking note in the conversation (actors/ticket_tracking), sent or not.
 */
import { getContact } from "../../actors/contacts/mod.ts";
import { getCompanyUser } from "../../actors/platform/lookup.ts";
import { recordTransition } from "../../actors/ticket_tracking/mod.ts";
import { whatsapps } from "../../actors/whatsapps/collection.ts";
import type { Ticket, TicketCommand, TicketEffect } from "../../domain/ticket.ts";
import type { AppDeps } from "../deps.ts";
import { sendSystemMessage } from "./ticket_hooks.ts";
import { surveyOnResolve } from "../ratings/send.ts";
import { afterTransition } from "../conversation/transitions.ts";
import { log } from "../../actors/_runtime/log.ts";

/** Fills `{{name}}` (the contact's name) in a configured text. */
function fill(text: string, contactName: string): string {
  return text.replaceAll("{{name}}", contactName);
}

/** The text an effect sends in `ticket`, or "" for none. */
async function effectText(deps: AppDeps, ticket: Ticket, effect: TicketEffect): Promise<string> {
  const { system } = deps;
  const contact = await getContact(system, ticket.companyId, ticket.contactId);
  const name = contact?.name ?? "";
  const user = ticket.userId === null
    ? undefined
    : await getCompanyUser(system, ticket.companyId, ticket.userId);
  if (effect.type === "greeting") {
    if (!user) return "";
    return `Olá *${name}*, meu nome é *${user.name}* e agora vou prosseguir com seu atendimento!`;
  }
  const conn = ticket.whatsappId === null
    ? undefined
    : await whatsapps.in(system, ticket.companyId).get(ticket.whatsappId);
  const text = user?.farewellMessage?.trim() || conn?.complationMessage?.trim() || "";
  return text ? fill(text, name) : "";
}

/** Sends the messages of `effects` in `ticket` and records its tracking note (see the module doc). */
export async function performEffects(
  deps: AppDeps,
  ticket: Ticket,
  effects: TicketEffect[],
  change?: { before: Ticket; byUserId: number; commands: readonly TicketCommand["type"][] },
): Promise<void> {
  if (change && change.before !== ticket) {
    await recordTransition(deps.system, change.before, ticket, change.byUserId, change.commands).catch((error) =>
      log.error(`The tracking note of ticket ${ticket.id} failed`, { error })
    );
    await afterTransition(deps, change.before, ticket, change.commands).catch((error) =>
      log.error(`The conversation messages of ticket ${ticket.id}'s change failed`, { error })
    );
  }
  for (const effect of effects) {
    // The rating survey has its own sender (server/ratings/send.ts); it never throws.
    if (effect.type === "survey") {
      await surveyOnResolve(deps, ticket, effect.ratingId);
      continue;
    }
    try {
      const text = await effectText(deps, ticket, effect);
      if (text) await sendSystemMessage(deps, ticket.companyId, ticket.id, text);
    } catch (error) {
      log.error(`The ${effect.type} message of ticket ${ticket.id} failed`, { error });
    }
  }
}
