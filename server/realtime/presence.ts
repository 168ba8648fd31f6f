/**
 * Users' online flag (issue #5 "Presence"): a user is online while at least one of its
 * sockets counts (open and not marked away by `userStatus`), and goes offline once none has
 * counted for the grace period, so a page reload does not flicker the dashboard. Changes are
 * written through the users collection, which publishes `company-{id}-user`.
 */
import { PLATFORM, users } from "../../actors/platform/collections.ts";
import type { ActorSystem } from "../../actors/_runtime/system.ts";
import { log } from "../../actors/_runtime/log.ts";

/** Per-process presence bookkeeping; one per hub. */
export class Presence {
  /** Counting sockets per user. */
  #counts = new Map<number, number>();
  /** Users considered online, per company. */
  #online = new Map<number, Set<number>>();
  #timers = new Map<number, ReturnType<typeof setTimeout>>();
  #closed = false;

  constructor(readonly system: ActorSystem, readonly graceMs: () => number) {}

  /** A counting socket of the user appeared. */
  up(companyId: number, userId: number): void {
    this.#counts.set(userId, (this.#counts.get(userId) ?? 0) + 1);
    this.#clearTimer(userId);
    const online = this.#companySet(companyId);
    if (!online.has(userId)) {
      online.add(userId);
      this.#write(userId, true);
    }
  }

  /** A counting socket of the user went away (closed, or marked away). */
  down(companyId: number, userId: number): void {
    const count = (this.#counts.get(userId) ?? 1) - 1;
    if (count > 0) {
      this.#counts.set(userId, count);
      return;
    }
    this.#counts.delete(userId);
    this.#arm(companyId, userId);
  }

  /** Ids of the company's online users (grace period included), ascending. */
  onlineUserIds(companyId: number): number[] {
    return [...this.#online.get(companyId) ?? []].sort((a, b) => a - b);
  }

  /**
   * Clears flags left on by a previous process: users stored online with no socket here go
   * offline after the grace period unless a socket of theirs arrives first.
   */
  async reconcile(): Promise<void> {
    for (const user of await users.in(this.system, PLATFORM).list()) {
      if (!user.online || this.#counts.has(user.id) || this.#timers.has(user.id)) continue;
      this.#companySet(user.companyId).add(user.id);
      this.#arm(user.companyId, user.id);
    }
  }

  /** Stops every timer; nothing is written afterwards. */
  close(): void {
    this.#closed = true;
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
  }

  #arm(companyId: number, userId: number): void {
    this.#clearTimer(userId);
    if (this.#closed) return;
    this.#timers.set(
      userId,
      setTimeout(() => {
        this.#timers.delete(userId);
        if (this.#counts.has(userId)) return;
        this.#online.get(companyId)?.delete(userId);
        this.#write(userId, false);
      }, this.graceMs()),
    );
  }

  #clearTimer(userId: number): void {
    const timer = this.#timers.get(userId);
    if (timer !== undefined) clearTimeout(timer);
    this.#timers.delete(userId);
  }

  #companySet(companyId: number): Set<number> {
    let set = this.#online.get(companyId);
    if (!set) this.#online.set(companyId, set = new Set());
    return set;
  }

  /** Stores the flag when it changed; the collection actor keeps the writes in call order. */
  #write(userId: number, online: boolean): void {
    if (this.#closed) return;
    users.in(this.system, PLATFORM).transact((view) => {
      const old = view.records.get(userId);
      if (!old || old.online === online) return { reply: false };
      return { put: [{ ...old, online, updatedAt: view.now }], reply: true };
    }).catch((error) => {
      if (!this.#closed) log.error(`Presence of user ${userId} not stored`, { error });
    });
  }
}
