/**
 * What the ticket desk gets from the host (actors/tickets/ports.ts): the interval unit, who
 * is online (the live-events hub), and the runner of transitions' effects (ticket_effects.ts),
 * to which the desk hands an automatic transition's intent and any intent its retry timer
 * brings back.
 */
import type { TicketPorts } from "../../actors/tickets/ports.ts";
import type { AppDeps } from "../deps.ts";
import { applyEffects } from "./ticket_effects.ts";

/** The ports the desk of `deps.system` gets (bound in server/start.ts). */
export function ticketPorts(deps: AppDeps): TicketPorts {
  return {
    minuteMs: deps.config.timerMinuteMs,
    onlineUserIds: (companyId) => deps.hub.onlineUserIds(companyId),
    effects: (intent) => applyEffects(deps, intent),
  };
}
