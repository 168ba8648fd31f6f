/**
 * What a ticket transition leaves to do once it is durable (issue #39): the messages the
 * customer is owed — the greeting on accept, the farewell and the rating survey on resolve,
 * the transfer alert, the farewell of a waiting ticket closed, the place in line, an
 * automatic close's message. The ticket desk writes them as one intent in the same atomic as
 * the transition; the effects' runner applies the intent's steps in order, each step's
 * message stored in the same atomic as the mark that the step is done, and the intent is
 * deleted once every step is. So a process that stops between the transition and a send
 * delays that send (the intent's retry timer brings it back, on this process or the one
 * that takes the company over), never drops it, and a step applied again sends nothing twice.
 *
 * Whether a step sends anything (a setting off, an empty text) is decided when it is applied:
 * the intent only says which steps the transition may need. Pure; no I/O.
 */
import type { Ticket, TicketCommand, TicketEffect } from "./ticket.ts";

/** One step of an intent, as its message's note marks it done. */
export interface EffectStep {
  intentId: string;
  step: number;
}

/** The kinds of step, in the order an intent applies them. */
export type EffectStepKind =
  | { kind: "transferAlert" }
  | { kind: "waitingFarewell" }
  | { kind: "queuePosition" }
  | { kind: "closeMessage"; text: string }
  | { kind: "greeting" }
  | { kind: "farewell" }
  | { kind: "survey"; ratingId: number };

/** A transition's intent, stored by the desk (actors/tickets/keys.ts `effectKey`). */
export interface EffectIntent {
  /** Sorts by creation: `{ms, 13 digits}{counter, 3 digits}`. */
  id: string;
  ticketId: number;
  before: Ticket;
  after: Ticket;
  /** Who made the change; null for the bot and the automatic timers. */
  byUserId: number | null;
  commands: TicketCommand["type"][];
  steps: EffectStepKind[];
  /** Steps applied (their messages stored, or found to need none). */
  done: number[];
  createdAt: number;
  /** How often its retry timer brought it back (the backoff grows with it). */
  attempts: number;
}

/**
 * The steps the change `before` → `after` by `commands`, with the machine's `effects`, may
 * need (see the module doc); empty when it needs none, and then no intent is written.
 */
export function effectSteps(
  before: Ticket,
  after: Ticket,
  commands: readonly TicketCommand["type"][],
  effects: readonly TicketEffect[],
  /** False when the user chose to close without the farewell ("Fechar sem despedida", #41). */
  farewell = true,
): EffectStepKind[] {
  const steps: EffectStepKind[] = [];
  const moved = before.queueId !== after.queueId || (after.userId !== null && before.userId !== after.userId);
  if (commands.includes("transfer") && after.status !== "closed" && moved) steps.push({ kind: "transferAlert" });
  if (before.status === "pending" && after.status === "closed" && farewell) steps.push({ kind: "waitingFarewell" });
  if (
    after.status === "pending" && after.userId === null && after.queueId !== null &&
    (before.queueId !== after.queueId || before.status !== "pending")
  ) steps.push({ kind: "queuePosition" });
  for (const effect of effects) {
    steps.push(effect.type === "survey" ? { kind: "survey", ratingId: effect.ratingId } : { kind: effect.type });
  }
  return steps;
}

/** The desk's timer-wheel entry that brings intent `id` back if it is not done by then. */
export function effectTimerId(id: string): string {
  return `effects:${id}`;
}

/** When an intent applied `attempts` times already comes back, counted from `now`. */
export function effectRetryAt(now: number, attempts: number, minuteMs: number): number {
  return now + Math.min(60, 2 ** Math.min(attempts, 6)) * minuteMs / 2;
}
