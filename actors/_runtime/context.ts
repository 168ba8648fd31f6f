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

/**
 * What one message's handler recorded; see the module doc. The run is itself the handler's
 * context: its methods are the prototype's, so a message costs one object, not a closure
 * per method.
 */
export class HandlerRun implements ActorContext<unknown> {
  /** Every write of the run, including `spent`. */
  readonly mutations: Mutation[];
  readonly events: BusEvent[] = [];
  /** New due time per timer id, or null when cancelled (created on first use). */
  timerChanges?: Map<string, number | null>;
  /** Callbacks of `onDurable`, in the order given (created on first use). */
  durable?: Array<() => void>;
  readonly id: string;
  readonly state: unknown;
  readonly now: number;
  readonly kv: Deno.Kv;
  #open = true;

  /** `spent`: writes that stand even if the handler fails (a fired timer's disarming). */
  constructor(
    readonly system: ActorSystem,
    readonly instance: Instance,
    readonly spent: Mutation[],
  ) {
    this.mutations = spent.length === 0 ? [] : [...spent];
    this.id = instance.id;
    this.state = instance.state;
    this.now = system.now();
    this.kv = system.kv;
  }

  set(key: Deno.KvKey, value: unknown, options?: { expireIn?: number }): void {
    const expireIn = options?.expireIn;
    this.#record(this.mutations, expireIn === undefined ? { type: "set", key, value } : { type: "set", key, value, expireIn });
  }

  delete(key: Deno.KvKey): void {
    this.#record(this.mutations, { type: "delete", key });
  }

  sum(key: Deno.KvKey, n: number | bigint): void {
    this.#record(this.mutations, { type: "sum", key, value: BigInt(n) });
  }

  emit(event: BusEvent): void {
    this.#record(this.events, event);
  }

  setTimer(timerId: string, dueAt: number, handler: string, arg?: unknown): void {
    const { def, id } = this.instance;
    if (!(handler in def.handlers)) {
      throw new Error(`Actor ${def.kind} has no handler ${handler} for timer ${timerId}`);
    }
    if (!Number.isFinite(dueAt)) throw new Error(`Timer ${timerId} due at ${dueAt}`);
    this.#record(this.mutations, { type: "set", key: timerKey(def.kind, id, timerId), value: dueAt });
    this.mutations.push(timerEnqueue(def.kind, id, timerId, dueAt, { handler, arg }, this.now));
    (this.timerChanges ??= new Map()).set(timerId, dueAt);
  }

  cancelTimer(timerId: string): void {
    const { def, id } = this.instance;
    this.#record(this.mutations, { type: "delete", key: timerKey(def.kind, id, timerId) });
    (this.timerChanges ??= new Map()).set(timerId, null);
  }

  onDurable(fn: () => void): void {
    this.#record(this.durable ??= [], fn);
  }

  /** Runs the `onDurable` callbacks (the system calls it once the writes are durable). */
  runDurable(): void {
    if (!this.durable) return;
    for (const fn of this.durable) {
      try {
        fn();
      } catch (error) {
        console.error(`Actor ${this.instance.def.kind} ${this.id}: an onDurable callback failed`, error);
      }
    }
  }

  timerDue(timerId: string): number | undefined {
    return this.timerChanges?.has(timerId)
      ? this.timerChanges.get(timerId) ?? undefined
      : this.instance.timers.get(timerId);
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
    if (!this.timerChanges) return;
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
