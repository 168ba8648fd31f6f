/**
 * The clock an actor system reads (`ActorSystemOptions` now, senderNow, timersNow): the wall clock,
 * except while a seeder replays the past through the live paths (server/seed/history writes a
 * demo's thirty days this way). Then it reads the time the seeder set, so every handler's
 * `ctx.now`, every timer it arms and every counter's hour bucket fall on that day, as if the
 * server had run then. Only a start replays, before the server listens: no request sees it.
 *
 * Two ways to replay:
 * - `replayAt(t)`: the whole system is at `t` (timers ring by it, server code reads it).
 * - `inLane(t, work)`: `work`, and every message it sends, is at `t`, while other lanes run at
 *   their own times beside it (an async context per lane). This is what lets many customers'
 *   conversations be played side by side, their writes sharing the group commits, instead of
 *   one commit at a time.
 */
import { AsyncLocalStorage } from "node:async_hooks";

export class ReplayClock {
  #at: number | null = null;
  readonly #lane = new AsyncLocalStorage<number>();
  /** Lanes running: the wall-clock path skips the context lookup when none is. */
  #lanes = 0;

  /** The time now: the running lane's, else the one set by `replayAt`, else the wall clock's. */
  readonly now = (): number => (this.#lanes === 0 && this.#at === null ? Date.now() : this.senderNow() ?? this.sharedNow());

  /** The shared time (the one `replayAt` set, else the wall's): what timers ring by. */
  readonly sharedNow = (): number => this.#at ?? Date.now();

  /** The running lane's time, or undefined outside lanes (the actor system's `senderNow`). */
  readonly senderNow = (): number | undefined => (this.#lanes > 0 ? this.#lane.getStore() : undefined);

  /** Whether the clock reads a replayed time. */
  get replaying(): boolean {
    return this.#at !== null;
  }

  /**
   * From now on the clock reads `at`. While replaying, time never runs backwards: a time
   * before the one set last is taken as that one (two steps of a script that tie).
   */
  replayAt(at: number): number {
    this.#at = this.#at === null ? at : Math.max(this.#at, at);
    return this.#at;
  }

  /** Runs `work` with the clock at `at` for it and what it sends (see the module doc). */
  async inLane<T>(at: number, work: () => Promise<T>): Promise<T> {
    this.#lanes++;
    try {
      return await this.#lane.run(at, work);
    } finally {
      this.#lanes--;
    }
  }

  /** Back to the wall clock. */
  release(): void {
    this.#at = null;
  }
}
