/**
 * Anti-ban pacing (issue #4): every send of a connection (agent replies, the external API,
 * number checks, campaigns) takes a slot from one per-connection limiter. A slot is granted
 * no earlier than the previous one, at most `perMinute` slots fall in any 60 s window, and
 * each slot is pushed back by a random jitter so the traffic does not look machine-made.
 * Pure: the caller supplies the clock and the random number and keeps the state.
 */
import { z } from "zod";

/** The rolling window the cap applies to. */
export const PACING_WINDOW_MS = 60_000;

/** Limits of one connection's sending. */
export const PacingConfig = z.object({
  /** Most sends in any 60 s window. */
  perMinute: z.number().int().positive(),
  /** Up to this many ms of random delay added to each slot. */
  jitterMs: z.number().int().min(0),
});
export type PacingConfig = z.infer<typeof PacingConfig>;

/** Slot times already granted (ascending), only those that still count for the window. */
export interface PacerState {
  slots: number[];
}

/** A limiter with nothing granted yet. */
export function emptyPacer(): PacerState {
  return { slots: [] };
}

/**
 * Grants the next slot at or after `now`: returns its time and the new state.
 * `random` is in [0, 1) and scales the jitter.
 */
export function nextSlot(
  state: PacerState,
  now: number,
  config: PacingConfig,
  random: number,
): { at: number; state: PacerState } {
  const last = state.slots.at(-1) ?? -Infinity;
  let at = Math.max(now, last);
  const inWindow = state.slots.filter((t) => t > at - PACING_WINDOW_MS);
  if (inWindow.length >= config.perMinute) {
    at = Math.max(at, inWindow[inWindow.length - config.perMinute] + PACING_WINDOW_MS);
  }
  at += Math.floor(Math.min(Math.max(random, 0), 0.999999) * config.jitterMs);
  const slots = [...inWindow.filter((t) => t > at - PACING_WINDOW_MS), at];
  return { at, state: { slots } };
}
