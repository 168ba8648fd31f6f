/**
 * How a session actor reaches the live adapters of its server. Adapters are I/O handles that
 * cannot be persisted, so they live in the per-server channel registry (`deps.channels`);
 * the registry attaches itself to its actor system here, and a session's timer handler
 * (reconnect) finds it through the system it runs in. One entry per system, never shared.
 */
import type { ActorSystem } from "../_runtime/system.ts";

/** What a session actor asks of the live side. */
export interface SessionHost {
  /** (Re)starts the adapter of a connection; must not wait for the session actor. */
  connect(companyId: number, whatsappId: number): void;
  /** Stops the adapter (keeping its auth). */
  halt(companyId: number, whatsappId: number): void;
  /** The session stayed OPENING too long: report it (TIMEOUT) and stop the adapter. */
  timedOut(companyId: number, whatsappId: number): void;
  /** How long a connection may stay away from CONNECTED before its admins are told (ms). */
  readonly dropGraceMs: number;
}

const hosts = new WeakMap<ActorSystem, SessionHost>();

/** Makes `host` the live side of every session actor of `system`. */
export function attachSessionHost(system: ActorSystem, host: SessionHost): void {
  hosts.set(system, host);
}

/** The live side of `system`, when one is attached (absent in pure actor tests). */
export function sessionHost(system: ActorSystem): SessionHost | undefined {
  return hosts.get(system);
}
