/**
 * Replayed time: the actor system's clock (actors/_runtime/replay_clock.ts) moved through the
 * past one script step at a time. Before a step, the timers that came due since the last one
 * ring at their own due times (a campaign's paced sends, a ticket's silence rule, a survey's
 * wait), each after the work the one before set going has settled, as they would have in the
 * days replayed.
 */
import type { ReplayClock } from "../../../actors/_runtime/replay_clock.ts";
import type { ActorSystem } from "../../../actors/_runtime/system.ts";

/** A turn of the event loop's timers: what the alarm clock set to ring now has rung. */
const timersTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export class Replay {
  constructor(readonly system: ActorSystem, readonly clock: ReplayClock) {}

  /** The replayed time now. */
  get now(): number {
    return this.clock.now();
  }

  /** Moves the clock to `at`, ringing on the way every timer due by then (module doc). */
  async to(at: number): Promise<void> {
    const { alarms } = this.system;
    for (let due = alarms.nextDue(); due !== undefined && due <= at; due = alarms.nextDue()) {
      this.clock.replayAt(due);
      alarms.wake();
      await timersTurn();
      await this.system.idle();
    }
    this.clock.replayAt(at);
  }

  /** Back to the present: the clock reads the wall again and timers wait for real time. */
  async end(): Promise<void> {
    this.clock.release();
    this.system.alarms.wake();
    await timersTurn();
  }
}
