/**
 * One handler run's record: the `ActorContext` a handler gets, and the writes, events and timer
 * changes it recorded through it. The system commits the record once the handler has returned;
 * a write recorded after that would be lost silently, so the context refuses it.
 */
import type { BusEvent } from "../../domain/events.ts";
import type { ActorContext } from "./actor.ts";
import type { Mutation } from "./committer.ts";
import type { Instance } from "./instance.ts";
import type { ActorSystem } from "./system.ts";
import { timerEnqueue, timerKey } from "./timers.ts";

/** What one message's handler recorded; see the module doc. */
export class HandlerRun {
  /** Every write of the run, including `spent`. */
  readonly mutations: Mutation[];
  readonly events: BusEvent[] = [];
  /** New due time per timer id, or null when cancelled. */
  readonly timerChanges = new Map<string, number | null>();
  readonly context: ActorContext<unknown>;
  #open = true;

  /** `spent`: writes that stand even if the handler fails (a fired timer's disarming). */
  constructor(
    system: ActorSystem,
    readonly instance: Instance,
    readonly spent: Mutation[],
  ) {
    this.mutations = [...spent];
    const { def, id } = instance;
    const now = system.now();
    this.context = {
      id,
      state: instance.state,
      now,
      kv: system.kv,
      system,
      set: (key, value) => this.#record(this.mutations, { type: "set", key, value }),
      delete: (key) => this.#record(this.mutations, { type: "delete", key }),
      emit: (event) => this.#record(this.events, event),
      setTimer: (timerId, dueAt, handler, arg) => {
        if (!(handler in def.handlers)) {
          throw new Error(`Actor ${def.kind} has no handler ${handler} for timer ${timerId}`);
        }
        if (!Number.isFinite(dueAt)) throw new Error(`Timer ${timerId} due at ${dueAt}`);
        const key = timerKey(def.kind, id, timerId);
        this.#record(this.mutations, { type: "set", key, value: dueAt });
        this.mutations.push(timerEnqueue(def.kind, id, timerId, dueAt, { handler, arg }, now));
        this.timerChanges.set(timerId, dueAt);
      },
      cancelTimer: (timerId) => {
        this.#record(this.mutations, { type: "delete", key: timerKey(def.kind, id, timerId) });
        this.timerChanges.set(timerId, null);
      },
      timerDue: (timerId) =>
        this.timerChanges.has(timerId)
          ? this.timerChanges.get(timerId) ?? undefined
          : instance.timers.get(timerId),
    };
  }

  /** True if the handler recorded writes of its own (beyond `spent`). */
  get wrote(): boolean {
    return this.mutations.length > this.spent.length;
  }

  /** Ends the run: from now on the context refuses to record anything. */
  close(): void {
    this.#open = false;
  }

  /** Applies the run's timer changes to the instance (after the handler succeeded). */
  applyTimers(): void {
    for (const [timerId, dueAt] of this.timerChanges) {
      if (dueAt === null) this.instance.timers.delete(timerId);
      else this.instance.timers.set(timerId, dueAt);
    }
  }

  #record<T>(list: T[], item: T): void {
    if (!this.#open) {
      const { def, id } = this.instance;
      throw new Error(`Actor ${def.kind} ${id}: ctx used after its handler returned`);
    }
    list.push(item);
  }
}
