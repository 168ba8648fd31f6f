/**
 * How an actor kind is declared. An actor has private in-memory state loaded from KV on
 * activation and a set of named handlers; messages to one actor run one at a time, in order.
 *
 * A handler changes `ctx.state` and records the KV writes, events and timers that go with the
 * change (`ctx.set`, `ctx.emit`, `ctx.setTimer`). The runtime commits the writes (with other
 * actors' writes, see committer.ts), then publishes the events and releases the reply.
 * Decisions belong in pure functions of `domain/`; handlers apply them.
 *
 * Rule: a handler validates before it changes anything. If it throws after recording writes,
 * the runtime evicts the actor, so the next message reloads the last committed state.
 */
import type { BusEvent } from "../../domain/events.ts";
import type { ActorSystem } from "./system.ts";

/** What a handler can do besides changing its state. */
export interface ActorContext<S> {
  /** The actor's id (for per-company actors, the company id as a string). */
  readonly id: string;
  readonly state: S;
  /** Wall-clock time the message started being handled, in ms since the epoch. */
  readonly now: number;
  /** For reads only; every write goes through `set` and `delete`. */
  readonly kv: Deno.Kv;
  /** For asks to other actors. Ask only "downwards" (never back to an asker): no cycles. */
  readonly system: ActorSystem;
  /** `expireIn` (ms): KV drops the entry after it, for records kept with a retention (audit log). */
  set(key: Deno.KvKey, value: unknown, options?: { expireIn?: number }): void;
  delete(key: Deno.KvKey): void;
  /** Adds `n` to the `Deno.KvU64` counter at `key` (sums of one key commute: no read needed). */
  sum(key: Deno.KvKey, n: number | bigint): void;
  /**
   * Appends entry `id → value` to the log under `log` (`logId`: that prefix as text, the same
   * for every entry of the log). A commit writes its entries of one log as one value:
   * appended_log.ts reads them.
   */
  append(log: Deno.KvKey, logId: string, id: string, value: unknown): void;
  emit(event: BusEvent): void;
  /**
   * Arms (or re-arms) timer `timerId` to call handler `handler` with `arg` at `dueAt`.
   * Survives restarts; a stale or duplicate delivery is ignored by the runtime.
   */
  setTimer(timerId: string, dueAt: number, handler: string, arg?: unknown): void;
  cancelTimer(timerId: string): void;
  /** Due time of an armed timer, or undefined. */
  timerDue(timerId: string): number | undefined;
  /**
   * Calls `fn` once this handler's writes (and every earlier one of the actor) are durable,
   * just before its reply is released; never if they are refused. For state that only has
   * to live while a write is in flight (messages/actor.ts drops its copy of a written message).
   */
  onDurable(fn: () => void): void;
}

// deno-lint-ignore no-explicit-any -- handler argument types vary per handler; ActorRef.ask recovers them.
export type Handler<S> = (ctx: ActorContext<S>, arg: any) => unknown;

/** The declaration of one actor kind. */
export interface ActorDef<S, H extends Record<string, Handler<S>>> {
  readonly kind: string;
  /** Loads the state on activation: one `kv.get` or one short `kv.list`. */
  load(kv: Deno.Kv, id: string, system: ActorSystem): Promise<S>;
  /**
   * The state of an actor that has never written anything, for `ActorRef.created`: whoever
   * allocated its id just now (a new ticket's messages and conversation) starts it with this,
   * without the reads a load and its timers' list cost.
   */
  empty?(id: string): S;
  readonly handlers: H;
  /** Milliseconds without messages after which the actor is dropped from memory. */
  readonly idleMs?: number;
}

/** Declares an actor kind with inferred handler types. */
export function defineActor<S, H extends Record<string, Handler<S>>>(
  def: ActorDef<S, H>,
): ActorDef<S, H> {
  return def;
}

// deno-lint-ignore no-explicit-any -- any actor definition, whatever its state and handlers.
export type AnyActorDef = ActorDef<any, Record<string, Handler<any>>>;

/** The argument type of handler K. */
export type ArgOf<H, K extends keyof H> = H[K] extends (ctx: never, arg: infer A) => unknown ? A
  : never;

/** The awaited result type of handler K. */
export type ReplyOf<H, K extends keyof H> = H[K] extends (...args: never[]) => infer R ? Awaited<R>
  : never;
