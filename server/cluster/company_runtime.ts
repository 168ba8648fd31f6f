/**
 * What running one company means to a process of several (issue #35, member.ts): taking it
 * warms its read models as a start does (snapshots included), resumes its WhatsApp sessions
 * (only under the lease) and arms its stored timers; letting it go stops its sessions, its
 * sockets and its timers' alarms, waits for its actors' writes in flight, and drops its actors
 * and in-memory indexes, so nothing of it is served or written from here any more.
 */
import { dropMessageSearch, providerIndex } from "../../actors/messages/mod.ts";
import { deskState } from "../../actors/tickets/mod.ts";
import type { AppDeps } from "../deps.ts";
import { warmCompanies } from "../boot.ts";
import type { CompanyRuntime } from "./member.ts";

/** The runtime of `deps`' process. */
export function companyRuntime(deps: AppDeps): CompanyRuntime {
  const { system, channels, hub } = deps;
  const tickets = new Map<number, number>();
  return {
    async start(companyId) {
      await warmCompanies(system, [companyId]);
      tickets.set(companyId, (await deskState(system, companyId)).index.byId.size);
      await channels.resumeCompany(companyId);
      // Last, as a start binds the senders' ports after the sessions are back: a scheduled
      // message that came due during the hand-over goes out through a connected session.
      await system.armTimersOf(companyId);
    },
    async stop(companyId) {
      tickets.delete(companyId);
      await channels.closeCompany(companyId);
      hub.closeCompany(companyId);
      system.alarms.dropCompany(companyId);
      await system.evictCompany(companyId);
      providerIndex(system).drop(companyId);
      dropMessageSearch(system, companyId);
    },
    load(companyId) {
      return tickets.get(companyId) ?? 0;
    },
    sessions: () => channels.liveKeys(),
  };
}
