/**
 * Hands a pending ticket to a user as the user's own accept would (greeting, tracking note):
 * what a scheduled message with `atribuirUser` and a campaign with `userId` do to the ticket
 * they open.
 */
import { companySettings, getCompanyUser } from "../../actors/platform/lookup.ts";
import { deskOf } from "../../actors/tickets/mod.ts";
import type { Ticket } from "../../domain/ticket.ts";
import type { AppDeps } from "../deps.ts";
import { applyEffects } from "../usecases/ticket_effects.ts";

/** Accepts `ticket` for `userId`; a user no longer in the company leaves it as it is. */
export async function assignPending(deps: AppDeps, ticket: Ticket, userId: number): Promise<Ticket> {
  const user = await getCompanyUser(deps.system, ticket.companyId, userId);
  if (!user) return ticket;
  const settings = await companySettings(deps.system, ticket.companyId);
  const reply = await deskOf(deps.system, ticket.companyId).ask("update", {
    id: ticket.id,
    body: { status: "open", userId },
    who: user,
    settings,
  });
  if (reply.intent) await applyEffects(deps, reply.intent);
  return reply.ticket;
}
