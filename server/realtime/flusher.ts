/**
 * When each socket's queued events go out (see `flushWindowMs` in hub.ts). A socket is
 * flushed at most once per window, counted from its own last flush: an event after a quiet
 * spell goes out a microtask later (with the rest of its burst), a steady stream as one
 * message per window.
 *
 * The windows are per socket rather than one clock for the hub: with one clock, every busy
 * socket was flushed in the same instant, so each window ended in a burst of ~750 messages
 * that the server took ~10 ms to send and the clients as long to read, and a frame's latency
 * was its wait for the window plus its place in the burst. Per-socket windows start wherever
 * each socket's traffic did, so the same messages go out spread across the window.
 */
import type { Connection } from "./connection.ts";

/** Schedules the flushes of the hub's sockets. */
export class Flusher {
  /** Sockets whose window has passed, flushed together once the current burst of events ends. */
  #now: Connection[] = [];
  #microtask = false;
  /** Sockets waiting for their window to end, by the millisecond it ends. */
  readonly #slots = new Map<number, Connection[]>();
  #timer?: ReturnType<typeof setTimeout>;
  /** The slot the timer is armed for. */
  #timerAt = Infinity;

  constructor(readonly windowMs: () => number) {}

  /** Schedules `conn`'s flush; the connection calls this when its queue becomes non-empty. */
  queued(conn: Connection): void {
    const now = performance.now();
    const due = conn.lastFlushAt + this.windowMs();
    if (due <= now) {
      this.#now.push(conn);
      if (!this.#microtask) {
        this.#microtask = true;
        queueMicrotask(() => this.#flushNow());
      }
      return;
    }
    const slot = Math.ceil(due);
    const waiting = this.#slots.get(slot);
    if (waiting) waiting.push(conn);
    else this.#slots.set(slot, [conn]);
    if (slot < this.#timerAt) this.#arm(slot, now);
  }

  /** Stops the timer; queued events are dropped (the hub is closing every socket). */
  close(): void {
    clearTimeout(this.#timer);
    this.#timerAt = Infinity;
    this.#slots.clear();
    this.#now = [];
  }

  #flushNow(): void {
    this.#microtask = false;
    const conns = this.#now;
    this.#now = [];
    for (const conn of conns) conn.flush();
  }

  #arm(slot: number, now: number): void {
    clearTimeout(this.#timer);
    this.#timerAt = slot;
    this.#timer = setTimeout(() => this.#fire(), Math.max(0, slot - now));
  }

  /** Flushes every slot that is due (timers have millisecond grain) and re-arms for the next. */
  #fire(): void {
    this.#timer = undefined;
    this.#timerAt = Infinity;
    const now = performance.now();
    let next = Infinity;
    for (const [slot, conns] of this.#slots) {
      if (slot <= now + 1) {
        this.#slots.delete(slot);
        for (const conn of conns) conn.flush();
      } else if (slot < next) next = slot;
    }
    if (next < Infinity) this.#arm(next, performance.now());
  }
}
