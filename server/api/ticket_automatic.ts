/**
 * The host side of the ticket desk's automatic transitions (actors/tickets/ports.ts, issue
 * #17): presence from the live-events hub, and the effects of an auto-close or auto-move once
 * the desk has committed it: the conversation's tracking note (by nobody: the system did it)
 * and, for an auto-close, the connection's close message with `{{name}}` filled. The decision
 * and its timer live in the desk; this only performs. A failed send is logged, never undoes
 * the change.
 */
import { getContact } from "../../actors/contacts/mod.ts";
import { recordTransition } from "../../actors/ticket_tracking/mod.ts";
import type { AutomaticChange, TicketPorts } from "../../actors/tickets/ports.ts";
import type { AppDeps } from "../deps.ts";
import { sendSystemMessage } from "./ticket_hooks.ts";
import { log } from "../../actors/_runtime/log.ts";

/** The ports the desk of `deps.system` gets (bound in server/start.ts). */
export function automaticTicketPorts(deps: AppDeps): TicketPorts {
  return {
    minuteMs: deps.config.timerMinuteMs,
    onlineUserIds: (companyId) => deps.hub.onlineUserIds(companyId),
    automatic: (change) => performAutomatic(deps, change),
  };
}

async function performAutomatic(deps: AppDeps, change: AutomaticChange): Promise<void> {
  const { ticket } = change;
  await recordTransition(deps.system, change.before, ticket, null).catch((error) =>
    log.error(`The tracking note of ticket ${ticket.id}'s ${change.type} failed`, { error })
  );
  if (change.type !== "autoClose" || !change.closeMessage.trim()) return;
  try {
    const contact = await getContact(deps.system, ticket.companyId, ticket.contactId);
    const text = change.closeMessage.trim().replaceAll("{{name}}", contact?.name ?? "");
    await sendSystemMessage(deps, ticket.companyId, ticket.id, text);
  } catch (error) {
    log.error(`The close message of ticket ${ticket.id} failed`, { error });
  }
}
