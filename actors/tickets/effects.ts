/**
 * The desk's side of transitions' effects (domain/ticket_effects.ts, issue #39): it writes a
 * transition's intent in the transition's own unit, with a timer-wheel entry that brings the
 * intent back if it is not done by then; it marks a step done in the same unit as the note of
 * the message that step stored (the message and the mark are one atomic, commit_link.ts); and
 * it deletes the intent, and its entry, once every step is done.
 *
 * The intents live in the desk's state too (loaded with it), so the runner reads which steps
 * are done without a KV read, and a step's mark and the intent's deletion serialize with every
 * other change of the company's tickets.
 */
import type { ActorContext } from "../_runtime/actor.ts";
import type { Ticket, TicketCommand, TicketEffect } from "../../domain/ticket.ts";
import {
  type EffectIntent,
  effectRetryAt,
  type EffectStep,
  effectSteps,
  effectTimerId,
} from "../../domain/ticket_effects.ts";
import { trackingId } from "../../domain/ticket_tracking.ts";
import type { DeskState } from "./actor.ts";
import { effectKey, effectPrefix } from "./keys.ts";
import { minuteOf, ticketPorts } from "./ports.ts";
import { log } from "../_runtime/log.ts";

type Ctx = ActorContext<DeskState>;

/** The wheel action that brings an intent back (timers.ts runs it). */
export const EFFECTS_ACTION = "effects";

/** A transition, as the desk's commit is told of it: who, by which commands, with what effects. */
export interface TransitionFacts {
  byUserId: number | null;
  commands: readonly TicketCommand["type"][];
  effects?: readonly TicketEffect[];
  /** False: the user closed without the farewell (a waiting ticket's too, #41). */
  farewell?: boolean;
  /**
   * An automatic change (the desk's timers): its only effect is an auto-close's text (the
   * connection's closeMessage), as before intents; an auto-move tells the customer nothing.
   */
  automatic?: { closeMessage: string };
}

/** The company's pending intents, read on activation. */
export async function loadIntents(kv: Deno.Kv, companyId: number): Promise<Map<string, EffectIntent>> {
  const intents = new Map<string, EffectIntent>();
  for await (const entry of kv.list<EffectIntent>({ prefix: effectPrefix(companyId) })) {
    intents.set(entry.value.id, entry.value);
  }
  return intents;
}

/**
 * Writes the intent of the transition `before` → `after` when it needs one (see the module
 * doc); returns it, or undefined.
 */
export function writeIntent(ctx: Ctx, before: Ticket, after: Ticket, facts: TransitionFacts): EffectIntent | undefined {
  const steps = facts.automatic
    ? (facts.automatic.closeMessage.trim() ? [{ kind: "closeMessage" as const, text: facts.automatic.closeMessage.trim() }] : [])
    : effectSteps(before, after, facts.commands, facts.effects ?? [], facts.farewell !== false);
  if (steps.length === 0) return undefined;
  const s = ctx.state;
  s.intentSeq = ctx.now === s.intentAt ? (s.intentSeq ?? 0) + 1 : 0;
  s.intentAt = ctx.now;
  const intent: EffectIntent = {
    id: trackingId(ctx.now, s.intentSeq),
    ticketId: after.id,
    before,
    after,
    byUserId: facts.byUserId,
    commands: [...facts.commands],
    steps,
    done: [],
    createdAt: ctx.now,
    attempts: 0,
  };
  store(ctx, intent);
  s.wheel.set(ctx, effectTimerId(intent.id), {
    dueAt: effectRetryAt(ctx.now, 0, minuteOf(ctx.system)),
    action: EFFECTS_ACTION,
    arg: { intent: intent.id },
  });
  return intent;
}

function store(ctx: Ctx, intent: EffectIntent): void {
  ctx.state.intents.set(intent.id, intent);
  ctx.set(effectKey(ctx.state.companyId, intent.id), intent);
}

/** Marks `step` done, in the unit of the message it stored (or alone, when it needed none). */
export function markStep(ctx: Ctx, step: EffectStep): void {
  const intent = ctx.state.intents.get(step.intentId);
  if (!intent || intent.done.includes(step.step)) return;
  store(ctx, { ...intent, done: [...intent.done, step.step] });
}

/** Deletes a finished intent and its retry entry. */
export function finishIntent(ctx: Ctx, intentId: string): void {
  if (!ctx.state.intents.delete(intentId)) return;
  ctx.delete(effectKey(ctx.state.companyId, intentId));
  ctx.state.wheel.cancel(ctx, effectTimerId(intentId));
}

/**
 * The wheel brought intent `id` back (a process stopped before it was done, or a step failed):
 * arms the next retry, further off each time, and hands it to the runner once durable.
 */
export function retryIntent(ctx: Ctx, id: string): void {
  const intent = ctx.state.intents.get(id);
  if (!intent) return;
  const next = { ...intent, attempts: intent.attempts + 1 };
  store(ctx, next);
  ctx.state.wheel.set(ctx, effectTimerId(id), {
    dueAt: effectRetryAt(ctx.now, next.attempts, minuteOf(ctx.system)),
    action: EFFECTS_ACTION,
    arg: { intent: id },
  });
  handOver(ctx, next);
}

/** Hands `intent` to the host's runner once this handler's writes are durable (never awaited). */
export function handOver(ctx: Ctx, intent: EffectIntent): void {
  const system = ctx.system;
  ctx.onDurable(() => {
    ticketPorts(system).then((ports) => ports.effects(intent)).catch((error) =>
      log.error(`The effects of ticket ${intent.ticketId}'s change failed`, { error })
    );
  });
}
