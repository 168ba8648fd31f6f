/**
 * Durable actor timers: an armed timer is a KV key `["timer", kind, actorId, timerId] → dueAt`
 * plus a queue message enqueued in the same atomic. KV delivers queue messages at least once,
 * out of order and possibly early or late, so the message only names the timer and its due
 * time; the actor fires it only if that exact due time is still armed (see system.ts).
 * So a timer is (timerId, dueAt): re-arming it for the very same millisecond with another
 * handler or argument may fire either version, once.
 */
import { z } from "zod";
import type { Mutation } from "./committer.ts";

/** KV key of an armed timer; its value is the due time in ms since the epoch. */
export function timerKey(kind: string, id: string, timerId: string): Deno.KvKey {
  return ["timer", kind, id, timerId];
}

/** Prefix of all armed timers of one actor (read on activation). */
export function timerPrefix(kind: string, id: string): Deno.KvKey {
  return ["timer", kind, id];
}

/** KV caps enqueue delays at 30 days; a longer timer is re-armed when the capped delay ends. */
export const MAX_DELAY_MS = 29 * 24 * 3600 * 1000;

/** A delivery earlier than this before the due time is treated as a capped delay: re-armed. */
export const EARLY_TOLERANCE_MS = 1000;

/** Queue message of the runtime; parsed at the boundary like any other input. */
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

/** The queue write that delivers timer `timerId` at `dueAt` (or at the delay cap, if sooner). */
export function timerEnqueue(
  kind: string,
  id: string,
  timerId: string,
  dueAt: number,
  target: { handler: string; arg?: unknown },
  now: number,
): Mutation {
  const message: TimerMessage = {
    t: "actor-timer",
    kind,
    id,
    timerId,
    dueAt,
    handler: target.handler,
    arg: target.arg ?? null,
  };
  const delay = Math.min(MAX_DELAY_MS, Math.max(0, dueAt - now));
  return { type: "enqueue", value: message, delay };
}
