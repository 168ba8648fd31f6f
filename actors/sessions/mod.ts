/** Session actors: one per connection; see actor.ts and state.ts. */
import type { ActorSystem } from "../_runtime/system.ts";
import { sessionActor } from "./actor.ts";
import type { SessionInput } from "./state.ts";

export { sessionActor, sessionKey, sessionView } from "./actor.ts";
export { attachSessionHost, type SessionHost, sessionHost } from "./host.ts";
export { MAX_QR, MAX_RETRIES, reconnectDelay, type SessionInput } from "./state.ts";

/** The session actor of connection `whatsappId` of `companyId`. */
export function sessionRef(system: ActorSystem, companyId: number, whatsappId: number) {
  return system.ref(sessionActor, `${companyId}:${whatsappId}`);
}

/** Reports an adapter change to the session; replies with the new status and whether to stop. */
export function reportSession(
  system: ActorSystem,
  companyId: number,
  whatsappId: number,
  input: SessionInput,
) {
  return sessionRef(system, companyId, whatsappId).ask("transition", input);
}
