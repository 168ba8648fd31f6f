/**
 * The ticket desk: one actor per company (id = company id) that owns the company's tickets
 * in memory (records and the indexes of index.ts) and applies every change to them, one at
 * a time. Serializing here is what makes the lifecycle safe: two accepts of one ticket, or
 * two inbound messages of one contact, can never interleave. The kernel's output gate lets
 * this one hot actor handle thousands of changes per second: a reply waits for its commit,
 * the mailbox does not.
 *
 * Activation lists the company's tickets once (several id ranges in parallel) and builds
 * the indexes; the desk is never passivated, since its indexes are the inbox's read model.
 * Each handler validates (pure `decide` of domain/ticket.ts) before it changes anything.
 */
import { AppError, notFound } from "../../domain/errors.ts";
import { companyChannel } from "../../domain/events.ts";
import type { Principal } from "../../domain/permissions.ts";
import {
  buildTicket,
  decide,
  isActive,
  type MessageNote,
  latestOfTicket,
  otherOpenTicket,
  readTicket,
  Ticket,
  type TicketEffect,
  type TicketCommand,
  type TicketSettings,
  withMessage,
} from "../../domain/ticket.ts";
import { commandsForUpdate, type TicketUpdate } from "../../domain/ticket_input.ts";
import { messageDelta, ticketDeltas } from "../../domain/dashboard.ts";
import { type ActorContext, type AnyActorDef, defineActor } from "../_runtime/actor.ts";
import { type DashAggregates, loadAggregates, recordDeltas } from "../dashboard/aggregates.ts";
import { TicketIndex } from "./index.ts";
import { companyTicketsPrefix, ticketCounterKey, ticketKey, ticketLatestKey } from "./keys.ts";
import { applyStoredLatest, LatestWriter, listLatest } from "./latest.ts";
import { loadWheel, type TimerWheel } from "../_runtime/timer_wheel.ts";
import { armTicketTimers, cancelTicketTimers, TICK_HANDLER, timerActions } from "./timers.ts";
import { loadLookups, lookupsNow, type TicketItem, ticketItem } from "./view.ts";
import { openSnapshot, snapshotting, type SnapshotState } from "../_runtime/record_snapshot.ts";
import { reviveTicket, TICKET_SNAPSHOTS } from "./snapshot.ts";
import { ticketScope } from "./scope.ts";
import { finishIntent, loadIntents, markStep, type TransitionFacts, writeIntent } from "./effects.ts";
import { writeNote, writeTransitionNote } from "./tracking_notes.ts";
import type { EffectIntent, EffectStep } from "../../domain/ticket_effects.ts";
import type { BotNoteAction, TicketTracking } from "../../domain/ticket_tracking.ts";

/** The desk's state: the company, its last ticket id and the indexes. */
export interface DeskState {
  companyId: number;
  counter: number;
  index: TicketIndex;
  /** The dashboard's counters (actors/dashboard), kept with every ticket change. */
  dash: DashAggregates;
  /** The tickets' auto-close, auto-move and router timers (timers.ts). */
  wheel: TimerWheel;
  /** The router's last pick per queue (timers.ts); a restart starts the rotation over. */
  routerCursor?: Map<number, number>;
  /** The snapshot's bookkeeping (snapshot.ts). */
  snap: SnapshotState;
  /** Transitions' effects not yet applied (effects.ts), by intent id. */
  intents: Map<string, EffectIntent>;
  /** The time and per-ms counter of the last intent and tracking note ids. */
  intentAt?: number;
  intentSeq?: number;
  noteAt?: number;
  noteSeq?: number;
  /** Encodes the latest-message fields a message stores (latest.ts), made on first use. */
  latestWriter?: LatestWriter;
}

type Ctx = ActorContext<DeskState>;

/** A ticket after a message joined it, with its item as the ticket event carried it. */
export interface NotedTicket {
  ticket: Ticket;
  item: TicketItem;
}

/** Parallel KV list streams used on activation. */
const LOAD_STREAMS = 4;

/** The 404 of a ticket that does not exist in the company. */
export const ticketMissing = (id: number | string) =>
  notFound("ERR_NO_TICKET_FOUND", `Ticket ${id} does not exist`);

async function loadDesk(kv: Deno.Kv, id: string): Promise<DeskState> {
  const companyId = Number(id);
  const stored = (await kv.get<number>(ticketCounterKey(companyId))).value ?? 0;
  const [{ loaded, snap }, wheel, intents] = await Promise.all([
    openSnapshot(kv, TICKET_SNAPSHOTS, companyId),
    loadWheel(kv, "ticket-desk", id, TICK_HANDLER),
    loadIntents(kv, companyId),
  ]);
  const records = loaded ? loaded.records : await listTickets(kv, companyId, stored);
  const index = new TicketIndex();
  index.loadAll(records);
  let counter = stored;
  for (const ticketId of index.byId.keys()) if (ticketId > counter) counter = ticketId;
  const dash = await loadAggregates(kv, companyId, records);
  return { companyId, counter, index, dash, wheel, snap, intents };
}

/** Every ticket of the company from its records (several id ranges in parallel). */
async function listTickets(kv: Deno.Kv, companyId: number, stored: number): Promise<Ticket[]> {
  const prefix = companyTicketsPrefix(companyId);
  const records: Ticket[] = [];
  const span = Math.max(1, Math.ceil((stored + 1) / LOAD_STREAMS));
  const streams = Array.from({ length: LOAD_STREAMS }, async (_, k) => {
    const start = [...prefix, k * span];
    const selector = k === LOAD_STREAMS - 1
      ? { prefix, start }
      : { start, end: [...prefix, (k + 1) * span] };
    for await (const entry of kv.list(selector, { batchSize: 1000 })) {
      records.push(reviveTicket(entry.value));
    }
  });
  // Listed beside the records (awaited together: a failed stream never leaves it unhandled).
  const [byId] = await Promise.all([listLatest(kv, companyId), ...streams]);
  if (byId.size === 0) return records;
  return records.map((t) => {
    const stored = byId.get(t.id);
    return stored === undefined ? t : applyStoredLatest(t, stored);
  });
}

/**
 * Writes the ticket and its snapshot mark (snapshot.ts) into the handler's commit: the whole
 * record, or only its latest-message fields when that is all the change touched (`latestOnly`,
 * latest.ts).
 */
function store(ctx: Ctx, t: Ticket, latestOnly = false): void {
  if (latestOnly) {
    const writer = ctx.state.latestWriter ??= new LatestWriter();
    ctx.set(ticketLatestKey(t.companyId, t.id), writer.encode(latestOfTicket(t)));
  }
  else ctx.set(ticketKey(t.companyId, t.id), t);
  snapshot.mark(ctx, t.id);
}

/** The desk's snapshot (record_snapshot.ts): marks with its writes, and its save's handlers. */
const snapshot = snapshotting<DeskState, Ticket>(TICKET_SNAPSHOTS, (): AnyActorDef => ticketDesk, (state) => ({
  companyId: state.companyId,
  snap: state.snap,
  count: state.index.byId.size,
  records: () => [...state.index.byId.values()],
}));

export { ticketScope };

/** `created`: the change created the ticket (outbound webhooks tell ticket.created by it). */
function emit(ctx: Ctx, t: Ticket, data: unknown, created = false): void {
  ctx.emit({
    companyId: t.companyId,
    channel: companyChannel(t.companyId, "ticket"),
    data,
    scope: ticketScope(t),
    ...(created ? { created } : {}),
  });
}

/** Whether a change moves the ticket out of a list (status, queue or owner changed). */
function leavesList(before: Ticket, next: Ticket): boolean {
  return before.status !== next.status || before.queueId !== next.queueId ||
    before.userId !== next.userId;
}

/**
 * Writes `next` (after `before`, if any): index, KV and events. The list item is joined
 * before anything changes, so a failed lookup leaves the desk untouched. Returns the item,
 * which a message event about the same change can carry as it is. A transition (`facts`:
 * who made it, how) also writes its tracking note and its effects' intent in the same unit
 * (tracking_notes.ts, effects.ts); the intent, if any, is `intent` of the reply.
 */
async function commit(
  ctx: Ctx,
  before: Ticket | undefined,
  next: Ticket,
  facts?: TransitionFacts,
  /** The change touched only the message fields: its note is stored, not the record. */
  latestOnly = false,
): Promise<TicketItem & { intent?: EffectIntent }> {
  const lookups = lookupsNow(ctx.system, next.companyId) ?? await loadLookups(ctx.system, next.companyId);
  const item = ticketItem(next, lookups, { event: true });
  const others = before ? 1 : ctx.state.index.byContact.get(next.contactId)?.size ?? 0;
  recordDeltas(ctx.state.dash, ctx, next.companyId, ticketDeltas(before, next, ctx.now, others), next);
  ctx.state.index.put(next);
  store(ctx, next, latestOnly);
  armTicketTimers(ctx, before, next, lookups);
  if (before && leavesList(before, next)) {
    emit(ctx, before, { action: "removeFromList", ticketId: before.id });
  }
  emit(ctx, next, { action: "update", ticket: item }, before === undefined);
  if (before && before.queueId !== next.queueId) {
    // Spec 000 §4 names this ticket action: the ticket changed queue (chatbot choice or
    // transfer); it reaches the users of the new queue with the queue it came from.
    emit(ctx, next, { action: "moved-to-queue", ticket: item, fromQueueId: before.queueId });
  }
  if (!before || !facts) return item;
  writeTransitionNote(ctx, before, next, facts.byUserId, facts.commands, lookups);
  const intent = writeIntent(ctx, before, next, facts);
  return intent ? { ...item, intent } : item;
}

/** Throws ERR_OTHER_OPEN_TICKET when another active ticket holds `t`'s contact and connection. */
function assertOnlyActive(state: DeskState, t: Ticket): void {
  if (!isActive(t)) return;
  const other = state.index.activeOf(t.contactId, t.whatsappId);
  if (other && other.id !== t.id) throw otherOpenTicket(other);
}

function get(state: DeskState, id: number): Ticket {
  const t = state.index.byId.get(id);
  if (!t) throw ticketMissing(id);
  return t;
}

/** The fields of the machine's `create` command that a caller chooses (the desk sets the rest). */
type NewTicketRequest = Omit<Extract<TicketCommand, { type: "create" }>, "type" | "id" | "uuid" | "companyId">;

/** New ticket fields asked by POST /tickets, with who asks and the company's settings. */
export type CreateArg = NewTicketRequest & { who: Principal; settings: TicketSettings };

/** What an inbound message asks: the contact's active ticket on the connection, or a new one. */
export type InboundArg = Omit<NewTicketRequest, "userId" | "status">;

/**
 * A change asked of one ticket (PUT /tickets/{id}, the bot, a schedule, a campaign): the body,
 * who asks, the company's settings, and who the tracking note names (`who` unless said;
 * null: nobody, the bot).
 */
export interface UpdateArg {
  id: number;
  body: TicketUpdate;
  who: Principal;
  settings: TicketSettings;
  byUserId?: number | null;
}

/**
 * The reply of `update`: the ticket before and after, the machine's effects, and the intent
 * that carries them (and the other messages the change owes the customer) when there is one:
 * the caller applies it (server/usecases/ticket_effects.ts), and the desk's retry timer
 * brings it back if that does not finish.
 */
export interface UpdateReply {
  before: Ticket;
  ticket: Ticket;
  effects: TicketEffect[];
  intent?: EffectIntent;
}

/** The fields every new ticket takes from its request, with the desk's next id and a uuid. */
function newTicketFields(
  s: DeskState,
  arg: Pick<InboundArg, "contactId" | "whatsappId" | "queueId" | "isGroup" | "channel">,
) {
  return {
    id: s.counter + 1,
    uuid: crypto.randomUUID(),
    companyId: s.companyId,
    contactId: arg.contactId,
    whatsappId: arg.whatsappId,
    queueId: arg.queueId,
    isGroup: arg.isGroup,
    channel: arg.channel,
  };
}

/** Stores a new ticket and advances the company's ticket counter in the same commit. */
async function storeNew(ctx: Ctx, ticket: Ticket): Promise<void> {
  await commit(ctx, undefined, ticket);
  ctx.state.counter = ticket.id;
  ctx.set(ticketCounterKey(ctx.state.companyId), ticket.id);
}

const timers = timerActions({ commit });

export const ticketDesk = defineActor({
  kind: "ticket-desk",
  idleMs: Infinity,
  load(kv, id): Promise<DeskState> {
    return loadDesk(kv, id);
  },
  handlers: {
    /** Auto-close, auto-move and the router: the due entries of the desk's timer wheel (timers.ts). */
    [TICK_HANDLER]: (ctx) => timers.tick(ctx),

    /** POST /tickets: a new ticket after the opening rules and the one-active-ticket rule. */
    async create(ctx, arg: CreateArg): Promise<Ticket> {
      const { ticket } = decide(null, {
        type: "create",
        ...newTicketFields(ctx.state, arg),
        userId: arg.userId,
        status: arg.status,
      }, arg.who, arg.settings, ctx.now);
      assertOnlyActive(ctx.state, ticket!);
      await storeNew(ctx, ticket!);
      return ticket!;
    },

    /** Inbound message: the open or pending ticket of the contact there, or a new pending one. */
    async inbound(ctx, arg: InboundArg): Promise<{ ticket: Ticket; created: boolean }> {
      const found = ctx.state.index.activeOf(arg.contactId, arg.whatsappId);
      if (found) return { ticket: found, created: false };
      const ticket = buildTicket({
        ...newTicketFields(ctx.state, arg),
        userId: null,
        status: "pending",
      }, ctx.now);
      await storeNew(ctx, ticket);
      return { ticket, created: true };
    },

    /**
     * PUT /tickets/{id}: the body's commands in order, all decided before any is applied.
     * `commands` names the commands' types for the tracking note when they were not the
     * body's own (the bot's and a schedule's assignments say "accept"/"transfer").
     */
    async update(ctx, arg: UpdateArg): Promise<UpdateReply> {
      const before = get(ctx.state, arg.id);
      let ticket = before;
      const effects: TicketEffect[] = [];
      const commands = commandsForUpdate(before, arg.body);
      for (const command of commands) {
        const decision = decide(ticket, command, arg.who, arg.settings, ctx.now);
        ticket = decision.ticket!;
        effects.push(...decision.effects);
      }
      if (ticket === before) return { before, ticket, effects };
      if (!isActive(before)) assertOnlyActive(ctx.state, ticket);
      const byUserId = arg.byUserId === undefined ? arg.who.id : arg.byUserId;
      const facts = { byUserId, commands: commands.map((c) => c.type), effects, farewell: arg.body.sendFarewellMessage !== false };
      const { intent } = await commit(ctx, before, ticket, facts);
      return intent ? { before, ticket, effects, intent } : { before, ticket, effects };
    },

    /** DELETE /tickets/{id} (permission checked by `decide`). */
    remove(ctx, arg: { id: number; who: Principal; settings: TicketSettings }): Ticket {
      const before = get(ctx.state, arg.id);
      decide(before, { type: "delete" }, arg.who, arg.settings, ctx.now);
      ctx.state.index.drop(before.id);
      ctx.delete(ticketKey(before.companyId, before.id));
      ctx.delete(ticketLatestKey(before.companyId, before.id));
      snapshot.mark(ctx, before.id);
      cancelTicketTimers(ctx, before.id);
      emit(ctx, before, { action: "delete", ticketId: before.id });
      return before;
    },

    /**
     * A message joined the ticket: preview, times and the unread counter. `effect`: the message
     * is a step of a transition's intent, marked done in the same unit (effects.ts).
     */
    async note(ctx, arg: MessageNote & { id: number; effect?: EffectStep }): Promise<NotedTicket> {
      const before = get(ctx.state, arg.id);
      const next = withMessage(before, arg);
      recordDeltas(ctx.state.dash, ctx, before.companyId, [messageDelta(before, arg.fromMe, arg.at)]);
      if (arg.effect) markStep(ctx, arg.effect);
      return { ticket: next, item: await commit(ctx, before, next, undefined, true) };
    },

    /** A step of an intent that stored nothing (a setting off, an empty text) is done. */
    effectStep(ctx, step: EffectStep): void {
      markStep(ctx, step);
    },

    /** Every step of intent `id` is done: it and its retry timer go. */
    effectsDone(ctx, arg: { id: string }): void {
      finishIntent(ctx, arg.id);
    },

    /** A bot note (domain/ticket_tracking.ts BOT_NOTE_ACTIONS) in ticket `id`'s conversation. */
    botNote(ctx, arg: { id: number; action: BotNoteAction; detail: string }): TicketTracking {
      const t = get(ctx.state, arg.id);
      const lookups = lookupsNow(ctx.system, t.companyId);
      return writeNote(ctx, t, {
        ticketId: t.id,
        action: arg.action,
        queueId: t.queueId,
        queueName: t.queueId === null ? null : lookups?.queues.get(t.queueId)?.name ?? null,
        userId: t.userId,
        userName: null,
        byUserId: null,
        byUserName: null,
        detail: arg.detail,
      });
    },

    /** The ticket was read: unread counter to 0 (no event when it already was). */
    read(ctx, arg: { id: number }): Ticket {
      const before = get(ctx.state, arg.id);
      if (before.unreadMessages === 0) return before;
      const next = readTicket(before);
      ctx.state.index.put(next);
      store(ctx, next, true);
      emit(ctx, next, { action: "updateUnread", ticketId: next.id });
      return next;
    },

    /** The chatbot chose a queue: the ticket moves there, its status unchanged. */
    async queue(ctx, arg: { id: number; queueId: number | null }): Promise<Ticket> {
      const before = get(ctx.state, arg.id);
      if (before.queueId === arg.queueId) return before;
      const next = { ...before, queueId: arg.queueId, updatedAt: Math.max(ctx.now, before.updatedAt) };
      await commit(ctx, before, next);
      return next;
    },

    /** The customer's rating answer (actors/ratings): the survey and the score on the ticket. */
    async rate(ctx, arg: { id: number; ratingId: number; rating: number }): Promise<Ticket> {
      const before = get(ctx.state, arg.id);
      const next = { ...before, ratingId: arg.ratingId, rating: arg.rating, updatedAt: Math.max(ctx.now, before.updatedAt) };
      await commit(ctx, before, next);
      return next;
    },

    /** Replaces the ticket's tags (the tags area's sync and kanban moves). */
    async tags(ctx, arg: { id: number; tagIds: number[] }): Promise<Ticket> {
      const before = get(ctx.state, arg.id);
      const tagIds = [...new Set(arg.tagIds)];
      const next = { ...before, tagIds };
      await commit(ctx, before, next);
      return next;
    },

    /** Moves the tickets of a merged contact onto the contact that stays. */
    async moveContact(ctx, arg: { fromId: number; intoId: number }): Promise<number> {
      const ids = [...ctx.state.index.byContact.get(arg.fromId) ?? []];
      if (ids.length > 400) {
        throw new AppError("ERR_CONFLICT", {
          status: 409,
          message: `Contact ${arg.fromId} has ${ids.length} tickets; move them in batches`,
        });
      }
      const lookups = await loadLookups(ctx.system, ctx.state.companyId);
      for (const id of ids) {
        const before = ctx.state.index.byId.get(id)!;
        const next = { ...before, contactId: arg.intoId };
        ctx.state.index.put(next);
        store(ctx, next);
        emit(ctx, next, { action: "update", ticket: ticketItem(next, lookups, { event: true }) });
      }
      return ids.length;
    },

    // The snapshot's save and start (record_snapshot.ts `snapshotting`).
    snapshotCapture: (ctx) => snapshot.handlers.snapshotCapture(ctx),
    snapshotToken: (ctx) => snapshot.handlers.snapshotToken(ctx),
    snapshotDone: (ctx, gen: number | null) => snapshot.handlers.snapshotDone(ctx, gen),
    snapshotIfDue: (ctx) => snapshot.handlers.snapshotIfDue(ctx),
  },
});
