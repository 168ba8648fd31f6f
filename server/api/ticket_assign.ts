/**
 * Hands a pending ticket to a user as the user's own accept would (greeting, tracking note):
 * what a scheduled message with `atribuirUser` and a campaign with `userId` do to the ticket
 * they open.
 */
import { companySettings, getCompanyUser } from "../../actors/platform/lookup.ts";
import { deskOf } from "../../actors/tickets/mod.ts";
import type { Ticket } from "../../domain/ticket.ts";
import type { AppDeps } from "../deps.ts";
import { performEffects } from "./ticket_effects.ts";

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
  await performEffects(deps, reply.ticket, reply.effects, { before: reply.before, byUserId: userId, commands: ["accept"] });
  return reply.ticket;
}
