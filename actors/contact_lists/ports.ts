/**
 * What the contact-lists checker needs from the host, bound once per actor system in
 * server/start.ts so the actor never imports server/: the WhatsApp number check on the
 * company's connection, through that connection's shared anti-ban pacing.
 */
import type { ActorSystem } from "../_runtime/system.ts";

export interface ContactListPorts {
  /**
   * Whether `number` has WhatsApp, checked on the company's default connection after its
   * pacing slot; throws when no connection can check now (the checker retries later).
   */
  checkNumber(companyId: number, number: string): Promise<boolean>;
  /** How long the checker waits before trying again after a failed check. */
  readonly retryMs: number;
}

const bound = new WeakMap<ActorSystem, PromiseWithResolvers<ContactListPorts>>();

function slot(system: ActorSystem) {
  let entry = bound.get(system);
  if (!entry) bound.set(system, entry = Promise.withResolvers<ContactListPorts>());
  return entry;
}

/** Binds the host's ports to `system` (once, at start-up). */
export function bindContactListPorts(system: ActorSystem, ports: ContactListPorts): void {
  slot(system).resolve(ports);
}

/** The ports of `system`; a timer delivered before they are bound waits for them. */
export function contactListPorts(system: ActorSystem): Promise<ContactListPorts> {
  return slot(system).promise;
}
