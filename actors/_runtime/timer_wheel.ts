/**
 * Many durable timers of one actor on a single runtime timer: for an actor that arms one timer
 * per record it owns (the ticket desk: an auto-close or auto-move per ticket of the company).
 *
 * Why not one `ctx.setTimer` each: runtime timers were KV queue messages, delivered one dequeue
 * transaction at a time (about 100 a second, bench/timers.ts), so 10,000 tickets coming due
 * within a minute fired minutes late. Runtime timers are keys woken by the process's alarm
 * clock now (timers.ts, issue #35), but the wheel stays the cheaper form for many timers of
 * one actor: its entries load with the actor's state, fire in bounded batches in one turn,
 * and cost one alarm, not one each. Here each timer is one KV key `["timer_wheel", kind,
 * actorId, timerId] → { dueAt, handler, arg }`, written in the same atomic as the state that
 * needs it, and the actor holds a single runtime timer (`WHEEL_TIMER`) armed for the earliest
 * entry. When it fires, the actor takes the due entries in bounded batches (`takeDue`), runs
 * them, and re-arms the runtime timer for what is left (`rearm`). A restart loses nothing:
 * the entries are read back on activation (`loadWheel`) and the runtime timer is durable.
 *
 * The wheel is part of the actor's state: changed only by its handlers, through their
 * context, so a failed handler's eviction reloads it from KV with the rest of the state.
 * Entries due at the same time fire in arming order; a cancelled or re-armed entry is skipped
 * lazily (due_heap.ts), so cancelling costs one KV delete and nothing else.
 */
import type { ActorContext } from "./actor.ts";
import { DueHeap } from "./due_heap.ts";

/** The runtime timer id an actor's wheel uses. */
export const WHEEL_TIMER = "timer_wheel";

/** One armed entry: which handler-side action to run, with what, when. */
export interface WheelEntry {
  dueAt: number;
  action: string;
  arg: unknown;
}

/** KV key of one entry of actor `id` of kind `kind`. */
export function wheelKey(kind: string, id: string, timerId: string): Deno.KvKey {
  return ["timer_wheel", kind, id, timerId];
}

/** Prefix of every entry of one actor (read on activation; the tenant purge removes it). */
export function wheelPrefix(kind: string, id: string): Deno.KvKey {
  return ["timer_wheel", kind, id];
}

/** See the module doc. */
export class TimerWheel {
  readonly #entries = new DueHeap<WheelEntry>();

  /** `tick` is the actor's handler that the runtime timer calls (it runs `takeDue`). */
  constructor(readonly kind: string, readonly id: string, readonly tick: string) {}

  /** Number of armed entries. */
  get size(): number {
    return this.#entries.size;
  }

  /** Due time of entry `timerId`, or undefined when it is not armed. */
  due(timerId: string): number | undefined {
    return this.#entries.get(timerId)?.dueAt;
  }

  /** Arms (or re-arms) entry `timerId`; moves the runtime timer earlier when it must. */
  set(ctx: ActorContext<unknown>, timerId: string, entry: WheelEntry): void {
    if (!Number.isFinite(entry.dueAt)) throw new Error(`Wheel entry ${timerId} due at ${entry.dueAt}`);
    ctx.set(wheelKey(this.kind, this.id, timerId), entry);
    this.#entries.set(timerId, entry);
    const armed = ctx.timerDue(WHEEL_TIMER);
    if (armed === undefined || armed > entry.dueAt) ctx.setTimer(WHEEL_TIMER, entry.dueAt, this.tick);
  }

  /** Disarms entry `timerId` (nothing when it is not armed). */
  cancel(ctx: ActorContext<unknown>, timerId: string): void {
    if (!this.#entries.delete(timerId)) return;
    ctx.delete(wheelKey(this.kind, this.id, timerId));
  }

  /**
   * Removes and returns, earliest first, up to `max` entries due at `now`; their keys are
   * deleted in the same run. Bounded so one run's writes stay within KV's atomic limits.
   */
  takeDue(ctx: ActorContext<unknown>, now: number, max: number): Array<WheelEntry & { timerId: string }> {
    const out: Array<WheelEntry & { timerId: string }> = [];
    while (out.length < max) {
      const due = this.#entries.takeDue(now);
      if (!due) break;
      const [timerId, entry] = due;
      ctx.delete(wheelKey(this.kind, this.id, timerId));
      out.push({ timerId, dueAt: entry.dueAt, action: entry.action, arg: entry.arg });
    }
    return out;
  }

  /** Arms the runtime timer for the earliest entry left (at `now` when some are overdue). */
  rearm(ctx: ActorContext<unknown>): void {
    const top = this.#entries.peek();
    if (!top) return;
    const dueAt = Math.max(top[1].dueAt, ctx.now);
    if (ctx.timerDue(WHEEL_TIMER) !== dueAt) ctx.setTimer(WHEEL_TIMER, dueAt, this.tick);
  }

  /**
   * Arms the runtime timer if entries are armed and it is not: a run whose writes KV refused
   * spends the runtime timer but leaves the entries (reloaded with the state). Cheap enough to
   * call on every change of the actor, which then heals the wheel.
   */
  ensureArmed(ctx: ActorContext<unknown>): void {
    if (this.#entries.size > 0 && ctx.timerDue(WHEEL_TIMER) === undefined) this.rearm(ctx);
  }

  /** Adds entries read from KV (activation). */
  load(entries: Iterable<[string, WheelEntry]>): void {
    for (const [timerId, entry] of entries) this.#entries.set(timerId, entry);
  }
}

/** Reads the wheel of actor `id` of kind `kind` from KV (one `kv.list`, on activation). */
export async function loadWheel(kv: Deno.Kv, kind: string, id: string, tick: string): Promise<TimerWheel> {
  const wheel = new TimerWheel(kind, id, tick);
  const entries: Array<[string, WheelEntry]> = [];
  for await (const entry of kv.list<WheelEntry>({ prefix: wheelPrefix(kind, id) }, { batchSize: 1000 })) {
    entries.push([String(entry.key[3]), entry.value]);
  }
  wheel.load(entries);
  return wheel;
}
