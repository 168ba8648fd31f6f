/**
 * Narrows which members a ticket event must be checked against, so fan-out costs what it
 * delivers rather than the company's head count. It only picks candidates: the decision is
 * still domain/visibility.ts canSeeTicket, so the candidates must include everyone that rule
 * could accept: managers, the ticket's owner, and the users of its queue; everyone when the
 * ticket has no queue or is a group that all users may see.
 */
import type { EventScope } from "../../domain/events.ts";
import { isManager } from "../../domain/permissions.ts";
import { settingOn } from "../../domain/settings.ts";
import type { VisibilitySettings } from "../../domain/visibility.ts";
import type { Member } from "./room.ts";

type TicketScope = Extract<EventScope, { kind: "ticket" }>;

/** Members indexed by what the ticket rule looks at. */
export class TicketAudience {
  readonly #managers = new Set<Member>();
  readonly #byQueue = new Map<number, Set<Member>>();

  /** Indexes a member under its current principal. */
  add(member: Member): void {
    if (isManager(member.principal)) {
      this.#managers.add(member);
      return;
    }
    for (const queueId of member.principal.queueIds) {
      let set = this.#byQueue.get(queueId);
      if (!set) this.#byQueue.set(queueId, set = new Set());
      set.add(member);
    }
  }

  /** Removes a member (call before its principal changes, then `add` again). */
  remove(member: Member): void {
    this.#managers.delete(member);
    for (const queueId of member.principal.queueIds) {
      const set = this.#byQueue.get(queueId);
      set?.delete(member);
      if (set?.size === 0) this.#byQueue.delete(queueId);
    }
  }

  /** Every member that could see a ticket of `scope`, each once. */
  *candidates(
    scope: TicketScope,
    settings: VisibilitySettings,
    members: ReadonlyMap<number, Member>,
  ): Generator<Member> {
    if (scope.queueId === null || (scope.isGroup && settingOn(settings.allusersviewgroups))) {
      yield* members.values();
      return;
    }
    yield* this.#managers;
    const queue = this.#byQueue.get(scope.queueId);
    if (queue) yield* queue;
    const owner = scope.userId === null ? undefined : members.get(scope.userId);
    if (owner && !this.#managers.has(owner) && !queue?.has(owner)) yield owner;
  }
}
