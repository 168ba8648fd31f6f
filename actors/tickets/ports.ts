/**
 * What the ticket desk needs from the host (issue #17, #39): who is online (the live-events
 * hub's presence), and the runner of transitions' effects (domain/ticket_effects.ts), which
 * the desk hands an automatic transition's intent, and any intent its retry timer brings back.
 * Built in server/start.ts and bound per actor system, so the desk never imports server/.
 *
 * A timer delivered before the host bound its ports (the first moments of a restart) waits for
 * them: `ticketPorts` resolves once `bindTicketPorts` has run.
 */
import type { ActorSystem } from "../_runtime/system.ts";
import type { EffectIntent } from "../../domain/ticket_effects.ts";
import { MINUTE_MS } from "../../domain/ticket_timers.ts";

export interface TicketPorts {
  /** Length of a "minute" of the intervals: 60,000 ms; tests shorten it (config timerMinuteMs). */
  readonly minuteMs: number;
  /** Ids of the company's online users. */
  onlineUserIds(companyId: number): number[];
  /** Applies an intent's steps not yet done (never throws; failures are logged). */
  effects(intent: EffectIntent): Promise<void>;
}

const bound = new WeakMap<ActorSystem, PromiseWithResolvers<TicketPorts> & { value?: TicketPorts }>();

function slot(system: ActorSystem) {
  let entry = bound.get(system);
  if (!entry) bound.set(system, entry = Promise.withResolvers<TicketPorts>());
  return entry;
}

/** Binds the host's ports to `system` (once, at start-up). */
export function bindTicketPorts(system: ActorSystem, ports: TicketPorts): void {
  const entry = slot(system);
  if (entry.value) throw new Error("Ticket ports are already bound to this actor system");
  entry.value = ports;
  entry.resolve(ports);
}

/** The ports of `system`, once bound. */
export function ticketPorts(system: ActorSystem): Promise<TicketPorts> {
  return slot(system).promise;
}

/** The interval unit of `system`: the bound ports' minute, else a real minute. */
export function minuteOf(system: ActorSystem): number {
  return bound.get(system)?.value?.minuteMs ?? MINUTE_MS;
}
