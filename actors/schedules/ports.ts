/**
 * What the schedules actor needs from the host to send a due message: the send itself
 * (contact, connection, ticket, stored message, outbound pacing), which lives with the
 * channels in server/. Built in server/start.ts and bound per actor system, so the actor
 * never imports server/.
 *
 * A timer delivered before the host bound its ports (the first moments of a restart) waits
 * for them: `schedulePorts` resolves once `bindSchedulePorts` has run. The host binds them
 * after the connections are resumed, so a message due during the downtime goes out through
 * a connected session instead of counting as "not ready".
 */
import type { ActorSystem } from "../_runtime/system.ts";
import type { Schedule, SendOutcome } from "../../domain/schedule.ts";

export interface SchedulePorts {
  /** Sends the due occurrence of `schedule`; never throws (a failure is an outcome). */
  send(schedule: Schedule): Promise<SendOutcome>;
  /** Wait before trying a connection that was not ready again (domain RETRY_MS; tests shorten it). */
  readonly retryMs?: number;
}

const bound = new WeakMap<ActorSystem, PromiseWithResolvers<SchedulePorts> & { value?: SchedulePorts }>();

function slot(system: ActorSystem) {
  let entry = bound.get(system);
  if (!entry) bound.set(system, entry = Promise.withResolvers<SchedulePorts>());
  return entry;
}

/** Binds the host's ports to `system` (once, at start-up). */
export function bindSchedulePorts(system: ActorSystem, ports: SchedulePorts): void {
  const entry = slot(system);
  if (entry.value) throw new Error("Schedule ports are already bound to this actor system");
  entry.value = ports;
  entry.resolve(ports);
}

/** The ports of `system`, once bound. */
export function schedulePorts(system: ActorSystem): Promise<SchedulePorts> {
  return slot(system).promise;
}
