/**
 * What the ticket desk needs from the host for its automatic transitions (issue #17): who is
 * online (the live-events hub's presence), and someone to perform what an automatic close or
 * move does besides the ticket change (the close message, the conversation's tracking note).
 * Built in server/start.ts and bound per actor system, so the desk never imports server/.
 *
 * A timer delivered before the host bound its ports (the first moments of a restart) waits for
 * them: `ticketPorts` resolves once `bindTicketPorts` has run.
 */
import type { ActorSystem } from "../_runtime/system.ts";
import type { Ticket } from "../../domain/ticket.ts";
import { MINUTE_MS } from "../../domain/ticket_timers.ts";

/** An automatic transition the desk committed, handed to the host once it is durable. */
export type AutomaticChange =
  /** Closed for the customer's silence: send the connection's close message. */
  | { type: "autoClose"; before: Ticket; ticket: Ticket; closeMessage: string }
  /** Moved to the connection's transfer queue after waiting unanswered. */
  | { type: "autoMove"; before: Ticket; ticket: Ticket };

export interface TicketPorts {
  /** Length of a "minute" of the intervals: 60,000 ms; tests shorten it (config timerMinuteMs). */
  readonly minuteMs: number;
  /** Ids of the company's online users. */
  onlineUserIds(companyId: number): number[];
  /** Performs the effects of an automatic change (never throws; failures are logged). */
  automatic(change: AutomaticChange): Promise<void>;
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
