/**
 * A process's alarm clock: what wakes the durable timers (timers.ts) of the companies this
 * process runs. It holds the armed timers it was told of, earliest first (due_heap.ts), and
 * one in-process timeout for the earliest; when that comes, it hands each due timer to the
 * actor system, which routes it into its actor's mailbox. It holds no business state: every
 * alarm names a timer stored in KV, the actor fires it only if that exact due time is still
 * armed there, and a process that stops loses nothing (the next one arms the same keys).
 *
 * Armed from: the stored keys of a company when the process takes it (`armFrom`), and each
 * commit that sets a timer, once that commit is durable (system.ts). An alarm is one due time
 * of one timer: a listing that read a timer just before a commit re-armed it adds a second
 * alarm beside the new one, never in its place, and the one that no longer matches rings into
 * nothing (the actor ignores it). A commit that re-arms or cancels a timer removes the alarm
 * of the due time it replaced.
 */
import { DueHeap } from "./due_heap.ts";
import { actorCompany, type ArmedTimer } from "./timers.ts";
import { log } from "./log.ts";

/** One armed timer as the clock holds it. */
export interface Alarm extends ArmedTimer {
  kind: string;
  id: string;
  timerId: string;
}

/**
 * Longest single wait of the in-process timeout: a wall clock that steps forward (NTP) makes
 * timers due meanwhile ring at most this late.
 */
const MAX_WAIT_MS = 60_000;

const alarmId = (kind: string, id: string, timerId: string, dueAt: number) =>
  `${kind}\u0000${id}\u0000${timerId}\u0000${dueAt}`;

/** See the module doc. */
export class AlarmClock {
  /** Each alarm with when to ring it (its due time, or later for a retry). */
  readonly #alarms = new DueHeap<{ dueAt: number; alarm: Alarm }>();
  #timeout: ReturnType<typeof setTimeout> | undefined;
  #wakeAt = Infinity;
  #stopped = false;

  /**
   * Called for each alarm as it rings with how late it rings (ms past its due time; a retry's
   * wait included): the server's timer-lag histogram (server/metrics). A port, so the kernel
   * knows no metrics library; one call per ring, nothing allocated for it.
   */
  onRing?: (lateMs: number) => void;

  /** `deliver` routes a due alarm to its actor; `now` is the system's clock. */
  constructor(readonly deliver: (alarm: Alarm) => void, readonly now: () => number) {}

  /** Number of alarms held (stale ones included until they come due). */
  get size(): number {
    return this.#alarms.size;
  }

  /** Arms the alarm of one timer at one due time; `ringAt` rings it later (a retry). */
  arm(alarm: Alarm, ringAt = alarm.dueAt): void {
    if (this.#stopped) return;
    this.#alarms.set(alarmId(alarm.kind, alarm.id, alarm.timerId, alarm.dueAt), { dueAt: ringAt, alarm });
    // Rings at once when already due, even if a wait for the same time is running: the clock
    // may have stepped past it.
    if (ringAt < this.#wakeAt || ringAt <= this.now()) this.#schedule();
  }

  /** Forgets the alarm of a timer's due time that was cancelled or replaced. */
  cancel(kind: string, id: string, timerId: string, dueAt: number): void {
    this.#alarms.delete(alarmId(kind, id, timerId, dueAt));
  }

  /** Forgets every alarm of a company's actors (the process no longer runs it). */
  dropCompany(companyId: number): void {
    this.#alarms.deleteWhere((_, { alarm }) => actorCompany(alarm.id) === companyId);
  }

  /**
   * Arms every timer stored under `prefix` (a company's: timers.ts `companyTimersPrefix`, or
   * `["timer"]` for all). Keys of an older store's layout are skipped: their queue messages
   * wake them. Resolves with how many were armed.
   */
  async armFrom(kv: Deno.Kv, prefix: Deno.KvKey): Promise<number> {
    let armed = 0;
    for await (const entry of kv.list<ArmedTimer>({ prefix }, { batchSize: 1000 })) {
      const [, companyId, kind, id, timerId] = entry.key;
      if (typeof companyId !== "number" || typeof kind !== "string") continue;
      const { dueAt, handler, arg } = entry.value;
      this.arm({ kind, id: String(id), timerId: String(timerId), dueAt, handler, arg });
      armed++;
    }
    return armed;
  }

  /**
   * The clock stepped (a replay moved it, actors/_runtime/replay_clock.ts): rings what is due
   * now and waits anew for the rest, instead of the wait computed from the old time.
   */
  wake(): void {
    if (!this.#stopped) this.#schedule();
  }

  /** The earliest due time held (stale alarms included), or undefined when none. */
  nextDue(): number | undefined {
    return this.#alarms.peek()?.[1].dueAt;
  }

  /** Stops waking anything (the system is closing). */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timeout);
    this.#timeout = undefined;
  }

  #schedule(): void {
    clearTimeout(this.#timeout);
    this.#timeout = undefined;
    this.#wakeAt = Infinity;
    const top = this.#alarms.peek();
    if (!top || this.#stopped) return;
    this.#wakeAt = top[1].dueAt;
    const wait = Math.min(MAX_WAIT_MS, Math.max(0, this.#wakeAt - this.now()));
    const timeout = setTimeout(() => this.#ring(), wait);
    // An armed alarm never keeps a process (or a test) alive on its own.
    Deno.unrefTimer(Number(timeout));
    this.#timeout = timeout;
  }

  #ring(): void {
    this.#timeout = undefined;
    this.#wakeAt = Infinity;
    const now = this.now();
    for (let due = this.#alarms.takeDue(now); due; due = this.#alarms.takeDue(now)) {
      const { alarm } = due[1];
      try {
        this.onRing?.(now - alarm.dueAt);
        this.deliver(alarm);
      } catch (error) {
        log.error(`Alarm of timer ${alarm.kind}/${alarm.id}/${alarm.timerId} failed`, { error });
      }
    }
    this.#schedule();
  }
}
