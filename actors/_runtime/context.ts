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
import type { AlarmClock } from "./alarms.ts";
import { type ArmedTimer, legacyTimerKey, timerKey } from "./timers.ts";
import { log } from "./log.ts";

/**
 * What one message's handler recorded; see the module doc. The run is itself the handler's
 * context: its methods are the prototype's, so a message costs one object, not a closure
 * per method.
 */
export class HandlerRun implements ActorContext<unknown> {
  /** Every write of the run, including `spent`. */
  readonly mutations: Mutation[];
  readonly events: BusEvent[] = [];
  /** New timer per timer id, or null when cancelled (created on first use). */
  timerChanges?: Map<string, ArmedTimer | null>;
  /** The due time each changed timer had before the run (its alarm is dropped). */
  timersBefore?: Map<string, number | undefined>;
  /** Callbacks of `onDurable`, in the order given (created on first use). */
  durable?: Array<() => void>;
  readonly id: string;
  readonly state: unknown;
  readonly now: number;
  readonly kv: Deno.Kv;
  #open = true;

  /**
   * `spent`: writes that stand even if the handler fails (a fired timer's disarming); `at`:
   * the sender's time (Envelope.at), else the clock's now.
   */
  constructor(
    readonly system: ActorSystem,
    readonly instance: Instance,
    readonly spent: Mutation[],
    at?: number,
  ) {
    this.mutations = spent.length === 0 ? [] : [...spent];
    this.id = instance.id;
    this.state = instance.state;
    this.now = at ?? system.now();
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

  append(log: Deno.KvKey, logId: string, id: string, value: unknown): void {
    this.#record(this.mutations, { type: "append", log, logId, id, value });
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
    const armed: ArmedTimer = { dueAt, handler, arg: arg ?? null };
    this.#record(this.mutations, { type: "set", key: timerKey(def.kind, id, timerId), value: armed });
    this.#dropLegacy(timerId);
    this.#change(timerId, armed);
  }

  cancelTimer(timerId: string): void {
    const { def, id } = this.instance;
    this.#record(this.mutations, { type: "delete", key: timerKey(def.kind, id, timerId) });
    this.#dropLegacy(timerId);
    this.#change(timerId, null);
  }

  #change(timerId: string, armed: ArmedTimer | null): void {
    const before = this.timersBefore ??= new Map();
    if (!before.has(timerId)) before.set(timerId, this.instance.timers.get(timerId));
    (this.timerChanges ??= new Map()).set(timerId, armed);
  }

  /** Deletes an older store's key of `timerId` (timers.ts), which the new one replaces. */
  #dropLegacy(timerId: string): void {
    const { def, id, legacyTimers } = this.instance;
    if (legacyTimers?.has(timerId)) this.mutations.push({ type: "delete", key: legacyTimerKey(def.kind, id, timerId) });
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
        log.error(`Actor ${this.instance.def.kind} ${this.id}: an onDurable callback failed`, { error });
      }
    }
  }

  timerDue(timerId: string): number | undefined {
    return this.timerChanges?.has(timerId)
      ? this.timerChanges.get(timerId)?.dueAt
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
    const { timers, legacyTimers } = this.instance;
    for (const [timerId, armed] of this.timerChanges) {
      legacyTimers?.delete(timerId);
      if (armed === null) timers.delete(timerId);
      else timers.set(timerId, armed.dueAt);
    }
  }

  /** Tells the alarm clock of the run's timer changes (once its writes are durable). */
  armAlarms(clock: AlarmClock): void {
    if (!this.timerChanges) return;
    const { def: { kind }, id } = this.instance;
    for (const [timerId, armed] of this.timerChanges) {
      const before = this.timersBefore?.get(timerId);
      if (before !== undefined && before !== armed?.dueAt) clock.cancel(kind, id, timerId, before);
      if (armed !== null) clock.arm({ kind, id, timerId, ...armed });
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
