/**
 * Deleting a ticket (DELETE /tickets/{id}): the desk removes it first, so it is gone for every
 * reader at once (lists, live events, the one-active-ticket rule); its messages, their media
 * and its tracking notes follow.
 */
import { deleteTicketMessages } from "../../actors/messages/mod.ts";
import { deleteTicketTracking } from "../../actors/ticket_tracking/mod.ts";
import { deskOf } from "../../actors/tickets/mod.ts";
import type { Principal } from "../../domain/permissions.ts";
import type { TicketSettings } from "../../domain/ticket.ts";
import type { AppDeps } from "../deps.ts";

/** Deletes ticket `id` of `who`'s company, as `who` may (the desk refuses otherwise). */
export async function deleteTicket(deps: AppDeps, id: number, who: Principal, settings: TicketSettings): Promise<void> {
  const { companyId } = who;
  await deskOf(deps.system, companyId).ask("remove", { id, who, settings });
  await deleteTicketMessages(deps, companyId, id);
  await deleteTicketTracking(deps.system, deps.kv, companyId, id);
}
