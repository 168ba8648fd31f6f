/**
 * Durable actor timers: an armed timer is one KV key
 * `["timer", companyId, kind, actorId, timerId] → { dueAt, handler, arg }`, written in the same
 * atomic as the state that needs it. What wakes it is the process's own alarm clock
 * (alarms.ts), armed from these keys when the process takes the company (at start, for a
 * process alone) and by each commit that sets one: the key is the timer, the alarm only a
 * wake-up. The actor fires a delivered timer only if that exact due time is still armed
 * (system.ts), and the firing's commit deletes the key with the handler's writes, so a timer
 * fires once, and a crash before that commit leaves it armed for the next start. So a timer is
 * (timerId, dueAt): re-arming it for the very same millisecond with another handler or
 * argument may fire either version, once.
 *
 * Why not KV queue messages (`kv.enqueue` with a delay), as before issue #35: processes that
 * share one store file do not get each other's queue messages, KV Connect (a remote store)
 * has no queues at all, and a local store delivered about 100 a second. Keys grouped by
 * company let the process that takes a company over arm that company's timers with one list.
 *
 * Stores written before issue #35 hold `["timer", kind, actorId, timerId] → dueAt` with a
 * queue message carrying the handler: activation still reads those keys, the system's queue
 * listener still routes their messages, and a firing deletes both layouts' keys.
 */
import { z } from "zod";

/** What an armed timer's key holds. */
export interface ArmedTimer {
  dueAt: number;
  handler: string;
  arg: unknown;
}

/**
 * The company an actor belongs to: its id begins with the company id (`"12"`, `"12:340"`);
 * 0 for the platform's actors and ids without one.
 */
export function actorCompany(id: string): number {
  const n = parseInt(id, 10);
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
}

/** KV key of an armed timer (see the module doc). */
export function timerKey(kind: string, id: string, timerId: string): Deno.KvKey {
  return ["timer", actorCompany(id), kind, id, timerId];
}

/** Prefix of all armed timers of one actor (read on activation). */
export function timerPrefix(kind: string, id: string): Deno.KvKey {
  return ["timer", actorCompany(id), kind, id];
}

/** Prefix of every armed timer of a company's actors (a process arms them when it takes it). */
export function companyTimersPrefix(companyId: number): Deno.KvKey {
  return ["timer", companyId];
}

/** An older store's key of an armed timer: its value is the due time (see the module doc). */
export function legacyTimerKey(kind: string, id: string, timerId: string): Deno.KvKey {
  return ["timer", kind, id, timerId];
}

/** Prefix of an older store's timers of one actor. */
export function legacyTimerPrefix(kind: string, id: string): Deno.KvKey {
  return ["timer", kind, id];
}

/** A delivery earlier than this before the due time is early: armed again, not fired. */
export const EARLY_TOLERANCE_MS = 1000;

/** Queue message of an older store's timer; parsed at the boundary like any other input. */
export const TimerMessage = z.object({
  t: z.literal("actor-timer"),
  kind: z.string(),
  id: z.string(),
  timerId: z.string(),
  dueAt: z.number(),
  handler: z.string(),
  arg: z.unknown(),
});
export type TimerMessage = z.infer<typeof TimerMessage>;
