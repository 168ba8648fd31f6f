/**
 * What message functions that receive only the actor system (`applyAck(system, …)`, called by
 * the channels) need from the app: the deps (secret for signed media URLs, data folder, the
 * outbound port), a small memory of acks that arrived before their message's provider id
 * was recorded, the inbound path's batched reads, its filter of stored provider ids and its
 * receipts in progress. Held per actor system, so every server (and every test's server) has its own;
 * bound at start-up (server/boot.ts `warmUp`) and by every function that gets the deps.
 */
import type { ActorSystem } from "../_runtime/system.ts";
import type { AppDeps } from "../../server/deps.ts";
import { BatchedReads } from "./batched_reads.ts";
import { ProviderFilter } from "./provider_filter.ts";

/** How many early acks are remembered, and for how long. */
const EARLY_ACKS = 2000;
const EARLY_ACK_MS = 60_000;

export interface MessagesContext {
  deps: AppDeps;
  /** `${companyId}:${providerId}` → the highest ack seen and when. */
  earlyAcks: Map<string, { ack: number; at: number }>;
  /** Provider-id and quoted-message reads of the inbound path, batched (batched_reads.ts). */
  reads: BatchedReads;
  /** Which provider ids may be stored: a "no" skips those reads (provider_filter.ts). */
  providers: ProviderFilter;
  /** `${companyId}:${providerId}` → the inbound receipt of it in progress (inbound.ts). */
  receiving: Map<string, Promise<unknown>>;
}

const contexts = new WeakMap<ActorSystem, MessagesContext>();

/** Binds `deps` to its actor system (idempotent). */
export function bindMessages(deps: AppDeps): MessagesContext {
  let ctx = contexts.get(deps.system);
  if (!ctx) {
    const fresh = {
      deps,
      earlyAcks: new Map(),
      reads: new BatchedReads(deps.kv),
      providers: new ProviderFilter(deps.kv),
      receiving: new Map(),
    };
    contexts.set(deps.system, ctx = fresh);
  } else if (ctx.deps !== deps) {
    ctx.deps = deps;
    if (ctx.reads.kv !== deps.kv) ctx.reads = new BatchedReads(deps.kv);
    if (ctx.providers.kv !== deps.kv) ctx.providers = new ProviderFilter(deps.kv);
  }
  return ctx;
}

/**
 * Notes a provider id whose key is being written (the messages actor calls it in the handler,
 * before the commit): see provider_filter.ts. Nothing to note before the app is bound.
 */
export function noteProviderId(system: ActorSystem, companyId: number, providerId: string): void {
  contexts.get(system)?.providers.add(companyId, providerId);
}

/**
 * False only when the company's filter knows `providerId` is not stored (then no write of it
 * has started either: writers note ids before they commit). True before the app is bound.
 */
export function mayHaveProviderId(system: ActorSystem, companyId: number, providerId: string): boolean {
  return contexts.get(system)?.providers.mayHave(companyId, providerId) ?? true;
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
