/**
 * The delivery queue of one webhook target (id `{companyId}:{target}`, target `s{id}` for a
 * subscription, `w{id}` for a connection's webhook): every delivery is a KV record written
 * when it is enqueued, so the queue survives a restart, and the actor's one durable timer
 * (`wake`) is armed whenever something is pending, so a restarted process resumes it.
 *
 * Why an actor of its own per target: enqueueing is one cheap handler (a record and at most
 * one timer), and the HTTP calls happen outside the mailbox (started once the records are
 * durable, their outcome coming back as a `settle` message), so a slow or dead endpoint never
 * holds up the events' producers, nor the other targets.
 *
 * Order and retries: deliveries of one lane (a ticket, a contact, a connection) go one at a
 * time in enqueue order; different lanes go in parallel, up to `concurrency`. A failed try
 * puts the whole target in backoff (base · 2^n, capped, jittered: domain/webhook.ts); the
 * next try after it is a single probe, and a success resumes full speed. So a dead endpoint
 * costs one request per backoff step, not one per pending delivery. A delivery still failing
 * `windowMs` (24 h) after it was enqueued is marked failed and its lane moves on. The log
 * keeps the pending deliveries and the last LOG_SIZE finished ones.
 *
 * At least once: a crash between an answer and its `settle` sends that delivery again after
 * the restart; receivers drop duplicates by `X-Balcao-Delivery`. A delivery is durable from
 * its own commit, a few milliseconds after the event that caused it (bus events are published
 * once their writes are durable): a crash inside that window loses it.
 */
import type { ActorContext } from "../_runtime/actor.ts";
import { defineActor } from "../_runtime/actor.ts";
import type { ActorSystem } from "../_runtime/system.ts";
import { AppError, notFound } from "../../domain/errors.ts";
import {
  backoffMs,
  delivered,
  type Delivery,
  Delivery as DeliverySchema,
  LOG_SIZE,
  MAX_PENDING,
  type WebhookTarget,
} from "../../domain/webhook.ts";
import { whatsapps } from "../whatsapps/collection.ts";
import { type AttemptResult, type WebhookRequest, webhookPorts, webhookPortsNow } from "./ports.ts";
import { webhookSubscriptions } from "./subscriptions.ts";
import { log } from "../_runtime/log.ts";

/** KV key of a delivery. */
export const deliveryKey = (companyId: number, target: string, seq: number): Deno.KvKey => [
  "webhook_delivery",
  companyId,
  target,
  seq,
];
/** KV key of a target's backoff state. */
export const targetKey = (companyId: number, target: string): Deno.KvKey => ["webhook_target", companyId, target];

/** The stored backoff state of a target. */
interface TargetMeta {
  failures: number;
  retryAt: number;
}

export interface TargetState extends TargetMeta {
  companyId: number;
  target: WebhookTarget;
  /** Last sequence number given. */
  counter: number;
  /** Pending deliveries by seq, in seq order. */
  pending: Map<number, Delivery>;
  /** Finished deliveries, oldest first (at most LOG_SIZE). */
  done: Delivery[];
  /** In memory only: seqs being tried now, and their lanes. */
  inflight: Map<number, string>;
}

/** What a caller enqueues. */
export interface EnqueueArg {
  event: string;
  lane: string;
  body: string;
}

/** How a try ended, as `settle` receives it. */
export type SettleOutcome =
  | { kind: "attempt"; result: AttemptResult }
  /** The subscription is switched off: kept pending, tried again when switched on. */
  | { kind: "paused" }
  /** The target no longer has an address (a connection's webhook was cleared): failed now. */
  | { kind: "dropped"; error: string };

type Ctx = ActorContext<TargetState>;

const WAKE = "wake";

/** Splits an actor id `{companyId}:{target}`. */
export function targetIds(id: string): { companyId: number; target: WebhookTarget } {
  const [company, target] = id.split(":");
  if (!/^[sw]\d+$/.test(target ?? "")) throw new Error(`Bad webhook target id ${id}`);
  return { companyId: Number(company), target: target as WebhookTarget };
}

async function load(kv: Deno.Kv, id: string): Promise<TargetState> {
  const { companyId, target } = targetIds(id);
  const [entries, meta] = await Promise.all([
    Array.fromAsync(kv.list<unknown>({ prefix: ["webhook_delivery", companyId, target] })),
    kv.get<TargetMeta>(targetKey(companyId, target)),
  ]);
  const state: TargetState = {
    companyId,
    target,
    counter: 0,
    failures: meta.value?.failures ?? 0,
    retryAt: meta.value?.retryAt ?? 0,
    pending: new Map(),
    done: [],
    inflight: new Map(),
  };
  for (const entry of entries) {
    const d = DeliverySchema.parse(entry.value);
    state.counter = Math.max(state.counter, d.seq);
    if (d.status === "pending") state.pending.set(d.seq, d);
    else state.done.push(d);
  }
  return state;
}

function write(ctx: Ctx, d: Delivery): void {
  ctx.set(deliveryKey(d.companyId, d.target, d.seq), d);
}

function writeMeta(ctx: Ctx): void {
  const { companyId, target, failures, retryAt } = ctx.state;
  ctx.set(targetKey(companyId, target), { failures, retryAt });
}

/** Moves `d` to the log, dropping the oldest finished deliveries past LOG_SIZE. */
function finish(ctx: Ctx, d: Delivery): void {
  const s = ctx.state;
  s.pending.delete(d.seq);
  s.done.push(d);
  write(ctx, d);
  while (s.done.length > LOG_SIZE) {
    const old = s.done.shift()!;
    ctx.delete(deliveryKey(old.companyId, old.target, old.seq));
  }
}

/** Adds a delivery; a full queue records it failed at once (never silently dropped). */
function add(ctx: Ctx, arg: EnqueueArg, resendOf: string | null): Delivery {
  const s = ctx.state;
  const d: Delivery = {
    v: 1,
    id: crypto.randomUUID(),
    seq: ++s.counter,
    companyId: s.companyId,
    target: s.target,
    event: arg.event,
    lane: arg.lane,
    body: arg.body,
    createdAt: ctx.now,
    status: "pending",
    attempts: 0,
    lastAttemptAt: null,
    statusCode: null,
    durationMs: null,
    error: null,
    resendOf,
  };
  if (s.pending.size >= MAX_PENDING) {
    finish(ctx, { ...d, status: "failed", error: `Queue full: ${MAX_PENDING} deliveries pending` });
    return d;
  }
  s.pending.set(d.seq, d);
  write(ctx, d);
  pump(ctx);
  return d;
}

/** Arms `wake` for when the target should next look at its queue (or disarms it when empty). */
function armWake(ctx: Ctx, watchdogMs: number): void {
  const s = ctx.state;
  const due = ctx.timerDue(WAKE);
  if (s.pending.size === 0) {
    if (due !== undefined) ctx.cancelTimer(WAKE);
  } else if (s.retryAt > ctx.now) {
    if (due !== s.retryAt) ctx.setTimer(WAKE, s.retryAt, WAKE);
  } else if (due === undefined) {
    ctx.setTimer(WAKE, ctx.now + watchdogMs, WAKE);
  }
}

/**
 * Starts the deliveries that may go now (see the module doc): called by every handler that
 * changed the queue or the backoff. The calls start once this handler's writes are durable.
 */
function pump(ctx: Ctx): void {
  const s = ctx.state;
  const ports = webhookPortsNow(ctx.system);
  if (!ports) {
    // The host has not bound its ports yet (a restart's first moments): look again later.
    if (s.pending.size > 0 && ctx.timerDue(WAKE) === undefined) ctx.setTimer(WAKE, ctx.now + 1000, WAKE);
    return;
  }
  const policy = ports.retry;
  if (s.failures > 0) expire(ctx, policy.windowMs);
  const starting: Delivery[] = [];
  if (ctx.now >= s.retryAt) {
    const limit = s.failures > 0 ? 1 : policy.concurrency;
    const busy = new Set(s.inflight.values());
    for (const d of s.pending.values()) {
      if (s.inflight.size >= limit) break;
      if (busy.has(d.lane)) continue;
      busy.add(d.lane); // later deliveries of this lane wait for this one
      s.inflight.set(d.seq, d.lane);
      starting.push(d);
    }
  }
  armWake(ctx, policy.watchdogMs);
  if (starting.length > 0) {
    const { system, id } = ctx;
    ctx.onDurable(() => {
      for (const d of starting) void attempt(system, id, d);
    });
  }
}

/** While the endpoint fails, deliveries older than the window are marked failed. */
function expire(ctx: Ctx, windowMs: number): void {
  // Deleting the entry being visited is safe in a Map's iteration.
  for (const d of ctx.state.pending.values()) {
    if (ctx.now < d.createdAt + windowMs) break; // seq order is enqueue order
    if (ctx.state.inflight.has(d.seq)) continue;
    finish(ctx, { ...d, status: "failed", error: d.error ?? "Not delivered within the retry window" });
  }
}

/** One try of `d`: resolves its target's address and secret now, posts, reports to the actor. */
async function attempt(system: ActorSystem, id: string, d: Delivery): Promise<void> {
  let outcome: SettleOutcome;
  try {
    const request = await requestFor(system, d);
    if (request === "gone") {
      await system.ref(webhookDeliveries, id).ask("purge", null);
      return;
    }
    if (request === "paused") outcome = { kind: "paused" };
    else if (typeof request === "string") outcome = { kind: "dropped", error: request };
    else outcome = { kind: "attempt", result: await (await webhookPorts(system)).post(request) };
  } catch (error) {
    outcome = { kind: "attempt", result: { statusCode: null, durationMs: 0, error: String(error) } };
  }
  await system.ref(webhookDeliveries, id).ask("settle", { seq: d.seq, outcome }).catch((error) =>
    log.warn(`Webhook delivery ${d.id} could not be settled (it is sent again later):`, { error: String(error) })
  );
}

/** The request for `d`, or why there is none: "gone" (subscription deleted), "paused", or an error text. */
async function requestFor(system: ActorSystem, d: Delivery): Promise<WebhookRequest | "gone" | "paused" | string> {
  const num = Number(d.target.slice(1));
  const base = { deliveryId: d.id, event: d.event, body: d.body };
  if (d.target.startsWith("s")) {
    const sub = await webhookSubscriptions.in(system, d.companyId).get(num);
    if (!sub) return "gone";
    if (!sub.active) return "paused";
    return { ...base, url: sub.url, secret: sub.secret, signing: "timestamped" };
  }
  const conn = await whatsapps.in(system, d.companyId).get(num);
  if (!conn) return "gone";
  if (conn.webhook.trim() === "") return "The connection has no webhook any more";
  return { ...base, url: conn.webhook.trim(), secret: conn.token, signing: "body" };
}

export const webhookDeliveries = defineActor({
  kind: "webhook-deliveries",
  // Longer than any try, so an actor is never passivated while one of its calls is out.
  idleMs: 10 * 60_000,
  load,
  handlers: {
    /** A new delivery at the end of its lane. */
    enqueue(ctx: Ctx, arg: EnqueueArg): string {
      return add(ctx, arg, null).id;
    },

    /** The outcome of a try. */
    settle(ctx: Ctx, arg: { seq: number; outcome: SettleOutcome }): void {
      const s = ctx.state;
      s.inflight.delete(arg.seq);
      const d = s.pending.get(arg.seq);
      if (!d) return;
      const { outcome } = arg;
      if (outcome.kind === "paused") {
        armWake(ctx, webhookPortsNow(ctx.system)?.retry.watchdogMs ?? 60_000);
        return;
      }
      if (outcome.kind === "dropped") {
        finish(ctx, { ...d, status: "failed", error: outcome.error });
        return pump(ctx);
      }
      const ports = webhookPortsNow(ctx.system)!;
      const { result } = outcome;
      const tried: Delivery = {
        ...d,
        attempts: d.attempts + 1,
        lastAttemptAt: ctx.now,
        statusCode: result.statusCode,
        durationMs: result.durationMs,
        error: result.error,
      };
      if (delivered(result.statusCode)) {
        finish(ctx, { ...tried, status: "delivered", error: null });
        if (s.failures > 0) {
          s.failures = 0;
          s.retryAt = 0;
          writeMeta(ctx);
        }
      } else {
        if (ctx.now >= d.createdAt + ports.retry.windowMs) finish(ctx, { ...tried, status: "failed" });
        else {
          s.pending.set(d.seq, tried);
          write(ctx, tried);
        }
        // Failures that were already in flight when the backoff began do not lengthen it.
        if (ctx.now >= s.retryAt) {
          s.failures++;
          s.retryAt = ctx.now + backoffMs(s.failures, ports.retry, ports.random());
          writeMeta(ctx);
        }
      }
      pump(ctx);
    },

    /** Timer: the backoff is over, or the watchdog (a restart resumes here). */
    wake(ctx: Ctx): void {
      pump(ctx);
    },

    /** Looks at the queue now (a subscription was switched on or edited). */
    kick(ctx: Ctx): void {
      const s = ctx.state;
      if (s.failures > 0 && s.retryAt > ctx.now) {
        // A fixed address deserves a try now rather than at the end of the backoff.
        s.retryAt = ctx.now;
        writeMeta(ctx);
      }
      pump(ctx);
    },

    /** POST …/deliveries/{id}/resend: the same event again, as a new delivery at the end of its lane. */
    resend(ctx: Ctx, arg: { id: string }): string {
      const old = ctx.state.done.find((d) => d.id === arg.id) ??
        [...ctx.state.pending.values()].find((d) => d.id === arg.id);
      if (!old) throw notFound("ERR_NOT_FOUND", `Webhook delivery ${arg.id} does not exist`);
      if (old.status === "pending") {
        throw new AppError("ERR_CONFLICT", { status: 409, message: `Webhook delivery ${arg.id} is still pending` });
      }
      return add(ctx, { event: old.event, lane: old.lane, body: old.body }, old.id).id;
    },

    /** The target is gone (subscription or connection deleted): every record and the timer go. */
    purge(ctx: Ctx): void {
      const s = ctx.state;
      for (const d of [...s.pending.values(), ...s.done]) ctx.delete(deliveryKey(d.companyId, d.target, d.seq));
      ctx.delete(targetKey(s.companyId, s.target));
      if (ctx.timerDue(WAKE) !== undefined) ctx.cancelTimer(WAKE);
      s.pending.clear();
      s.inflight.clear();
      s.done = [];
      s.failures = 0;
      s.retryAt = 0;
    },
  },
});
