/**
 * The ticket desk's durable timers (issue #17): auto-close, auto-move and the queue router,
 * whose rules are domain/ticket_timers.ts. `armTicketTimers` runs inside the desk's `commit`,
 * so every timer is armed or cancelled in the same atomic as the ticket change that needs it.
 * The timers are entries of the desk's timer wheel (actors/_runtime/timer_wheel.ts: one KV
 * key each, one runtime timer for the desk), because a company's desk holds one per active
 * ticket: they load with the desk and cost one alarm, not one each (timer_wheel.ts says why);
 * `tick` runs the due entries in bounded batches.
 *
 * Each action re-reads the ticket, the connection and the queue as they are when it fires, so
 * a setting changed meanwhile (an interval set to disabled, a router switched off) is
 * honoured, and a fire that no longer applies does nothing. An automatic change's tracking
 * note is written with it, and its close message is an intent (effects.ts) handed to the
 * host's runner once the change is durable, never awaited by the desk: it asks the desk again.
 * The wheel also brings back intents not done in time (`EFFECTS_ACTION`).
 */
import type { ActorContext } from "../_runtime/actor.ts";
import type { Ticket } from "../../domain/ticket.ts";
import {
  autoCloseDue,
  autoMoveTarget,
  closeTimerId,
  isRouted,
  moveTimerId,
  nextInRotation,
  planTicketTimers,
  reofferDue,
  routeTimerId,
  type TicketTimerHandler,
} from "../../domain/ticket_timers.ts";
import type { DeskState } from "./actor.ts";
import { minuteOf, ticketPorts } from "./ports.ts";
import { EFFECTS_ACTION, handOver, retryIntent, type TransitionFacts } from "./effects.ts";
import type { EffectIntent } from "../../domain/ticket_effects.ts";
import { loadLookups, lookupsNow, type TicketItem, type TicketLookups } from "./view.ts";
import { log } from "../_runtime/log.ts";

type Ctx = ActorContext<DeskState>;

/** The desk handler that the wheel's runtime timer calls. */
export const TICK_HANDLER = "ticketTimers";

/**
 * Most entries one tick runs: each writes up to about ten keys (ticket, wheel entry, the
 * dashboard's counters), and one handler's writes must fit one KV atomic (1,000 mutations).
 * The rest run in the next tick, armed at once.
 */
const PER_TICK = 50;

/** How long a failed action waits before it is tried again. */
const RETRY_MS = 60_000;

/** What the actions need from the desk: its commit (index, KV, events, timers, notes, intents). */
export interface DeskOps {
  commit(ctx: Ctx, before: Ticket | undefined, next: Ticket, facts?: TransitionFacts): Promise<TicketItem & { intent?: EffectIntent }>;
}

/** Argument of every ticket timer. */
export interface TicketTimerArg {
  id: number;
}

function arm(ctx: Ctx, timerId: string, dueAt: number, action: TicketTimerHandler, arg: TicketTimerArg): void {
  ctx.state.wheel.set(ctx, timerId, { dueAt, action, arg });
}

/** Arms and cancels the timers that the change `before` → `next` needs (see the module doc). */
export function armTicketTimers(ctx: Ctx, before: Ticket | undefined, next: Ticket, l: TicketLookups): void {
  const { wheel } = ctx.state;
  const conn = next.whatsappId === null ? undefined : l.whatsapps.get(next.whatsappId);
  const queue = next.queueId === null ? undefined : l.queues.get(next.queueId);
  const changes = planTicketTimers(before, next, conn, queue, (id) => wheel.due(id), ctx.now, minuteOf(ctx.system));
  for (const change of changes) {
    if (change.dueAt === null) wheel.cancel(ctx, change.id);
    else arm(ctx, change.id, change.dueAt, change.handler, { id: next.id });
  }
  wheel.ensureArmed(ctx);
}

/** Cancels every timer of a deleted ticket. */
export function cancelTicketTimers(ctx: Ctx, id: number): void {
  for (const timerId of [closeTimerId(id), moveTimerId(id), routeTimerId(id)]) ctx.state.wheel.cancel(ctx, timerId);
}

async function lookups(ctx: Ctx): Promise<TicketLookups> {
  return lookupsNow(ctx.system, ctx.state.companyId) ?? await loadLookups(ctx.system, ctx.state.companyId);
}


/** The desk's timer actions; `ops` gives them the desk's commit. */
export function timerActions(ops: DeskOps) {
  const actions: Record<TicketTimerHandler, (ctx: Ctx, arg: TicketTimerArg) => Promise<void>> = {
    /** Closes an open ticket whose customer stayed silent; re-arms when the silence is shorter. */
    async autoClose(ctx, arg) {
      const before = ctx.state.index.byId.get(arg.id);
      if (!before || before.status !== "open") return;
      const l = await lookups(ctx);
      const conn = before.whatsappId === null ? undefined : l.whatsapps.get(before.whatsappId);
      const due = autoCloseDue(before, conn, minuteOf(ctx.system));
      if (due === null) return;
      if (due > ctx.now) {
        // Fired for an earlier silence than the current one (lazy arming): wait for the rest.
        arm(ctx, closeTimerId(arg.id), due, "autoClose", arg);
        return;
      }
      const ticket: Ticket = { ...before, status: "closed", closedAt: ctx.now, updatedAt: ctx.now };
      const { intent } = await ops.commit(ctx, before, ticket, {
        byUserId: null,
        commands: [],
        automatic: { closeMessage: conn?.closeMessage ?? "" },
      });
      if (intent) handOver(ctx, intent);
    },

    /** Moves a pending ticket nobody accepted to the connection's transfer queue. */
    async autoMove(ctx, arg) {
      const before = ctx.state.index.byId.get(arg.id);
      if (!before) return;
      const l = await lookups(ctx);
      const conn = before.whatsappId === null ? undefined : l.whatsapps.get(before.whatsappId);
      const target = autoMoveTarget(before, conn);
      if (target === null || !l.queues.has(target)) return;
      // The offer of the old queue's router ends with the move; the new queue's router offers anew.
      const ticket: Ticket = { ...before, queueId: target, userId: null, updatedAt: ctx.now };
      await ops.commit(ctx, before, ticket, { byUserId: null, commands: [], automatic: { closeMessage: "" } });
    },

    /**
     * Offers a pending ticket of a router queue to the next online user of the queue (see
     * domain/ticket_timers.ts), and arms the re-offer.
     */
    async routeTicket(ctx, arg) {
      const before = ctx.state.index.byId.get(arg.id);
      if (!before) return;
      const l = await lookups(ctx);
      const queue = before.queueId === null ? undefined : l.queues.get(before.queueId);
      if (!queue || !isRouted(before, queue)) return;
      const ports = await ticketPorts(ctx.system);
      const queueId = queue.id;
      const online = ports.onlineUserIds(ctx.state.companyId).filter((id) => {
        const user = l.users.get(id);
        return user !== undefined && user.companyId === ctx.state.companyId && user.queueIds.includes(queueId);
      });
      const cursor = ctx.state.routerCursor ??= new Map();
      const userId = nextInRotation(online, cursor.get(queueId), before.userId);
      if (userId !== null) cursor.set(queueId, userId);
      if (userId !== before.userId) {
        // The list order stays: an offer is no news in the conversation (updatedAt unchanged).
        await ops.commit(ctx, before, { ...before, userId });
      }
      const due = reofferDue(queue, ctx.now, minuteOf(ctx.system));
      if (due !== null) arm(ctx, routeTimerId(arg.id), due, "routeTicket", arg);
    },
  };

  /** The wheel's runtime timer: runs the due entries (a batch), then re-arms for the rest. */
  async function tick(ctx: Ctx): Promise<number> {
    const due = ctx.state.wheel.takeDue(ctx, ctx.now, PER_TICK);
    for (const entry of due) {
      if (entry.action === EFFECTS_ACTION) {
        retryIntent(ctx, (entry.arg as { intent: string }).intent);
        continue;
      }
      const action = actions[entry.action as TicketTimerHandler];
      const arg = entry.arg as TicketTimerArg;
      if (!action) continue;
      try {
        await action(ctx, arg);
      } catch (error) {
        // Actions fail before they write (a lookup); the others of the batch still run.
        log.error(`Ticket ${arg.id}'s ${entry.action} failed; retried in ${RETRY_MS / 1000} s`, { error });
        arm(ctx, entry.timerId, ctx.now + RETRY_MS, entry.action as TicketTimerHandler, arg);
      }
    }
    ctx.state.wheel.rearm(ctx);
    return due.length;
  }

  return { ...actions, tick };
}
