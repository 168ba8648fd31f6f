/**
 * Transitioning a ticket (accept, resolve, return, transfer, reopen) with everything that
 * follows: the company's ticket desk decides the change and writes, in the same atomic, the
 * ticket, its tracking note and the intent of the messages the change owes the customer
 * (greeting, farewell, rating survey, transfer alert…); the intent is then applied here
 * (ticket_effects.ts), and the desk's retry timer brings it back if a stop cuts that short.
 *
 * Every flow that moves a ticket comes through here: `PUT /tickets/{id}` and its bulk form
 * (server/api/tickets.ts), the bot handing a ticket to a user (server/conversation/engine.ts),
 * a scheduled message with `atribuirUser` and a campaign with `userId` (`assignPending`).
 */
import { companySettings, getCompanyUser } from "../../actors/platform/lookup.ts";
import { deskOf, type UpdateArg } from "../../actors/tickets/mod.ts";
import type { Ticket } from "../../domain/ticket.ts";
import type { AppDeps } from "../deps.ts";
import { applyEffects } from "./ticket_effects.ts";

/** Applies `change` to its ticket, sends what the change owes, and resolves with the new ticket. */
export async function transitionTicket(deps: AppDeps, change: UpdateArg): Promise<Ticket> {
  const reply = await deskOf(deps.system, change.who.companyId).ask("update", change);
  if (reply.intent) await applyEffects(deps, reply.intent);
  return reply.ticket;
}

/**
 * Hands a pending `ticket` to user `userId` as the user's own accept would (greeting, tracking
 * note); a user no longer in the company leaves it as it is.
 */
export async function assignPending(deps: AppDeps, ticket: Ticket, userId: number): Promise<Ticket> {
  const user = await getCompanyUser(deps.system, ticket.companyId, userId);
  if (!user) return ticket;
  return await transitionTicket(deps, {
    id: ticket.id,
    body: { status: "open", userId },
    who: user,
    settings: await companySettings(deps.system, ticket.companyId),
  });
}
