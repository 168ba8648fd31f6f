/**
 * The scheduled messages of one company (id = company id): the records in memory, one KV
 * key each, and one durable actor timer per PENDENTE schedule (`s{id}`), armed in the same
 * commit as the write that needs it, re-armed by an edit, cancelled by a delete. When the
 * timer fires the actor sends through its host's port (ports.ts) and records ENVIADA, ERRO,
 * a retry, or the recurrence's next occurrence (domain/schedule.ts, schedule_recurrence.ts).
 *
 * Edits and sends go through this one mailbox, so an edit never interleaves with a send of
 * the same schedule: an edit that arrives after the send sees ENVIADA and is refused.
 * A crash after the message was handed to the channel but before this commit lets KV deliver
 * the timer again (at least once): that occurrence may then go out twice, never zero times.
 */
import { defineActor } from "../_runtime/actor.ts";
import type { ActorContext } from "../_runtime/actor.ts";
import type { ActorSystem } from "../_runtime/system.ts";
import { getContact } from "../contacts/mod.ts";
import { getCompanyUser } from "../platform/lookup.ts";
import { companyChannel } from "../../domain/events.ts";
import { AppError, notFound } from "../../domain/errors.ts";
import { isoText } from "../../domain/iso_date.ts";
import { afterOutcome, type Schedule, scheduleView } from "../../domain/schedule.ts";
import { nextAfterSend } from "../../domain/schedule_recurrence.ts";
import { schedulePorts } from "./ports.ts";

/** KV key of a schedule. */
export const scheduleKey = (companyId: number, id: number): Deno.KvKey => ["schedule", companyId, id];
/** KV key of the company's last schedule id. */
export const scheduleCounterKey = (companyId: number): Deno.KvKey => ["counter", "schedule", companyId];

export interface SchedulesState {
  companyId: number;
  records: Map<number, Schedule>;
  counter: number;
}

/** The fields a caller chooses for a new schedule (the actor sets id, status and times). */
export type ScheduleDraft = Pick<
  Schedule,
  | "contactId"
  | "body"
  | "sendAt"
  | "geral"
  | "queueId"
  | "whatsappId"
  | "atribuirUser"
  | "userId"
  | "repeatEvery"
  | "selectDaysRecorrenci"
  | "mediaPath"
  | "mediaName"
  | "createdBy"
>;

type Ctx = ActorContext<SchedulesState>;

const timerId = (id: number) => `s${id}`;

export const scheduleMissing = (id: number | string) =>
  notFound("ERR_NOT_FOUND", `Schedule ${id} does not exist`);

/** The view of `s` with its contact and user, as the API and the events show it. */
export async function viewOfSchedule(system: ActorSystem, s: Schedule) {
  const [contact, user] = await Promise.all([
    getContact(system, s.companyId, s.contactId),
    s.userId === null ? undefined : getCompanyUser(system, s.companyId, s.userId),
  ]);
  return scheduleView(s, contact, user, isoText);
}

/** Writes `s`, arms or disarms its timer for `dueAt`, and publishes `action`. */
async function store(ctx: Ctx, s: Schedule, dueAt: number | null, action: "create" | "update"): Promise<void> {
  ctx.state.records.set(s.id, s);
  ctx.set(scheduleKey(s.companyId, s.id), s);
  if (dueAt !== null) ctx.setTimer(timerId(s.id), dueAt, "due", { id: s.id });
  else if (ctx.timerDue(timerId(s.id)) !== undefined) ctx.cancelTimer(timerId(s.id));
  const schedule = await viewOfSchedule(ctx.system, s);
  ctx.emit({
    companyId: s.companyId,
    channel: companyChannel(s.companyId, "schedule"),
    data: { action, schedule },
    scope: { kind: "company" },
  });
}

export const schedulesActor = defineActor({
  kind: "schedules",
  async load(kv, id): Promise<SchedulesState> {
    const companyId = Number(id);
    const [entries, counter] = await Promise.all([
      Array.fromAsync(kv.list<Schedule>({ prefix: ["schedule", companyId] })),
      kv.get<number>(scheduleCounterKey(companyId)),
    ]);
    const records = new Map(entries.map((e) => [e.value.id, e.value]));
    return { companyId, records, counter: Math.max(counter.value ?? 0, 0, ...records.keys()) };
  },
  handlers: {
    /** A new PENDENTE schedule, its timer armed at `sendAt`. */
    async create(ctx, draft: ScheduleDraft): Promise<Schedule> {
      const id = ++ctx.state.counter;
      ctx.set(scheduleCounterKey(ctx.state.companyId), id);
      const s: Schedule = {
        ...draft,
        id,
        companyId: ctx.state.companyId,
        sentAt: null,
        status: "PENDENTE",
        repeatCount: 0,
        ticketId: null,
        error: null,
        attempts: 0,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      };
      await store(ctx, s, s.sendAt, "create");
      return s;
    },

    /** Changes a PENDENTE schedule (409 otherwise) and re-arms its timer at the new `sendAt`. */
    async update(ctx, arg: { id: number; change: Partial<ScheduleDraft> }): Promise<{ before: Schedule; after: Schedule }> {
      const before = ctx.state.records.get(arg.id);
      if (!before) throw scheduleMissing(arg.id);
      if (before.status !== "PENDENTE") {
        throw new AppError("ERR_CONFLICT", {
          status: 409,
          message: `Schedule ${arg.id} is ${before.status}: only a PENDENTE schedule can be edited`,
        });
      }
      const { createdBy: _author, ...change } = arg.change;
      const after: Schedule = { ...before, ...change, attempts: 0, error: null, updatedAt: ctx.now };
      await store(ctx, after, after.sendAt, "update");
      return { before, after };
    },

    /** Deletes a schedule and cancels its timer; replies with the deleted record. */
    remove(ctx, arg: { id: number }): Schedule {
      const s = ctx.state.records.get(arg.id);
      if (!s) throw scheduleMissing(arg.id);
      ctx.state.records.delete(s.id);
      ctx.delete(scheduleKey(s.companyId, s.id));
      if (ctx.timerDue(timerId(s.id)) !== undefined) ctx.cancelTimer(timerId(s.id));
      ctx.emit({
        companyId: s.companyId,
        channel: companyChannel(s.companyId, "schedule"),
        data: { action: "delete", scheduleId: s.id },
        scope: { kind: "company" },
      });
      return s;
    },

    /** Timer: the occurrence is due. Sends it and records the outcome (module doc). */
    async due(ctx, arg: { id: number }): Promise<void> {
      const s = ctx.state.records.get(arg.id);
      if (!s || s.status !== "PENDENTE") return;
      const ports = await schedulePorts(ctx.system);
      const outcome = await ports.send(s).catch((error): { type: "failed"; reason: string } => ({
        type: "failed",
        reason: error instanceof Error ? error.message : String(error),
      }));
      const now = ctx.system.now();
      const next = outcome.type === "sent" ? nextAfterSend(s, now) : null;
      const { schedule, dueAt } = afterOutcome(s, outcome, now, next, ports.retryMs);
      await store(ctx, schedule, dueAt, "update");
    },
  },
});
