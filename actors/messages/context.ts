/**
 * What message functions that receive only the actor system (`applyAck(system, …)`, called by
 * the channels) need from the app: the deps (secret for signed media URLs, data folder, the
 * outbound port), a small memory of acks that arrived before their message's provider id
 * was recorded, the inbound path's batched reads and its receipts in progress. Held per actor
 * system, so every server (and every test's server) has its own; bound at start-up
 * (server/boot.ts `warmUp`) and by every function that gets the deps. The provider index
 * (provider_index.ts) is per actor system too, but needs only its KV: the messages actor
 * uses it before any deps are bound (its own tests run without an app).
 */
import type { ActorSystem } from "../_runtime/system.ts";
import type { MessagesPorts } from "./ports.ts";
import { BatchedReads } from "./batched_reads.ts";
import { ProviderIndex } from "./provider_index.ts";

/** How many early acks are remembered, and for how long. */
const EARLY_ACKS = 2000;
const EARLY_ACK_MS = 60_000;

export interface MessagesContext {
  deps: MessagesPorts;
  /** `${companyId}:${providerId}` → the highest ack seen and when. */
  earlyAcks: Map<string, { ack: number; at: number }>;
  /** Provider-id and quoted-message reads of the inbound path, batched (batched_reads.ts). */
  reads: BatchedReads;
  /** `${companyId}:${providerId}` → the inbound receipt of it in progress (inbound.ts). */
  receiving: Map<string, Promise<unknown>>;
}

const contexts = new WeakMap<ActorSystem, MessagesContext>();

/** Binds `deps` to its actor system (idempotent). */
export function bindMessages(deps: MessagesPorts): MessagesContext {
  let ctx = contexts.get(deps.system);
  if (!ctx) {
    const fresh = {
      deps,
      earlyAcks: new Map(),
      reads: new BatchedReads(deps.kv),
      receiving: new Map(),
    };
    contexts.set(deps.system, ctx = fresh);
  } else if (ctx.deps !== deps) {
    ctx.deps = deps;
    if (ctx.reads.kv !== deps.kv) ctx.reads = new BatchedReads(deps.kv);
  }
  return ctx;
}

const indexes = new WeakMap<ActorSystem, ProviderIndex>();

/** The provider index of `system` (created on first use). */
export function providerIndex(system: ActorSystem): ProviderIndex {
  let index = indexes.get(system);
  if (!index) indexes.set(system, index = new ProviderIndex(system.kv));
  return index;
}

/** The context of `system`; throws when the app never bound it (a wiring bug). */
export function messagesContext(system: ActorSystem): MessagesContext {
  const ctx = contexts.get(system);
  if (!ctx) throw new Error("Messages are not bound to this actor system: call bindMessages(deps)");
  return ctx;
}

/** Remembers an ack whose provider id is not known yet. */
export function rememberEarlyAck(
  ctx: MessagesContext,
  companyId: number,
  providerId: string,
  ack: number,
  now: number,
): void {
  const key = `${companyId}:${providerId}`;
  const old = ctx.earlyAcks.get(key);
  ctx.earlyAcks.delete(key);
  ctx.earlyAcks.set(key, { ack: Math.max(ack, old?.ack ?? 0), at: now });
  for (const [k, v] of ctx.earlyAcks) {
    if (ctx.earlyAcks.size <= EARLY_ACKS && now - v.at <= EARLY_ACK_MS) break;
    ctx.earlyAcks.delete(k);
  }
}

/** Takes (and forgets) the early ack of a provider id, if one arrived recently. */
export function takeEarlyAck(
  ctx: MessagesContext,
  companyId: number,
  providerId: string,
  now: number,
): number | null {
  const key = `${companyId}:${providerId}`;
  const early = ctx.earlyAcks.get(key);
  if (!early) return null;
  ctx.earlyAcks.delete(key);
  return now - early.at <= EARLY_ACK_MS ? early.ack : null;
}
