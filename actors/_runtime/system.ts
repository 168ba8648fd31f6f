/**
 * The actor system: addressing (`ref(def, id)`), activation, mailboxes, the output gate,
 * timers and passivation. One system per KV handle.
 *
 * Output gate (after Cloudflare Durable Objects): once a handler has returned, its writes are
 * handed to the group committer and the mailbox goes on with the next message at once; the
 * handler's reply and events are held until its writes, and those of every earlier message
 * of the same actor, are durable. A hot actor therefore handles messages at CPU speed while
 * no client or subscriber ever learns of a write that a crash could undo.
 */
import { z } from "zod";
import type { BusEvent } from "../../domain/events.ts";
import type { ActorContext, AnyActorDef, ArgOf, Handler, ReplyOf } from "./actor.ts";
import { EventBus } from "./bus.ts";
import { GroupCommitter, type Mutation } from "./committer.ts";

/** KV keys of armed timers: `["timer", kind, actorId, timerId] → dueAt`. */
const timerKey = (kind: string, id: string, timerId: string): Deno.KvKey => [
  "timer",
  kind,
  id,
  timerId,
];

/** KV delays are capped (30 days); a longer timer is re-armed when the capped delay ends. */
const MAX_DELAY_MS = 29 * 24 * 3600 * 1000;

/** Queue messages of the runtime; parsed at the boundary like any other input. */
const TimerMessage = z.object({
  t: z.literal("actor-timer"),
  kind: z.string(),
  id: z.string(),
  timerId: z.string(),
  dueAt: z.number(),
  handler: z.string(),
  arg: z.unknown(),
});
type TimerMessage = z.infer<typeof TimerMessage>;

interface Envelope {
  handler: string;
  arg: unknown;
  /** Set for timer deliveries: the handler runs only if this timer is still armed at dueAt. */
  timer?: { timerId: string; dueAt: number };
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** One live actor: its state, mailbox and pending output. */
class Instance {
  state: unknown;
  timers = new Map<string, number>();
  mailbox: Envelope[] = [];
  running = false;
  lastUsed = 0;
  /** Settles when every write so far of this actor is durable (rejects never). */
  outputs: Promise<void> = Promise.resolve();
  pendingOutputs = 0;
  evicted = false;
  ready: Promise<void>;

  constructor(readonly def: AnyActorDef, readonly id: string, system: ActorSystem) {
    this.ready = this.#activate(system);
  }

  async #activate(system: ActorSystem): Promise<void> {
    const [state, timers] = await Promise.all([
      this.def.load(system.kv, this.id, system),
      Array.fromAsync(system.kv.list<number>({ prefix: ["timer", this.def.kind, this.id] })),
    ]);
    this.state = state;
    for (const entry of timers) this.timers.set(String(entry.key[3]), entry.value);
  }
}

export interface ActorSystemOptions {
  bus?: EventBus;
  /** Naive one-commit-per-write path, for the benchmark's comparison. */
  grouping?: boolean;
  /** Clock, replaceable in tests. */
  now?: () => number;
  /** How often idle actors are looked for, in ms. */
  sweepMs?: number;
}

/** Typed handle to one actor. */
export class ActorRef<H extends Record<string, Handler<never>>> {
  constructor(readonly system: ActorSystem, readonly def: AnyActorDef, readonly id: string) {}

  /** Sends `arg` to handler `handler` and resolves with its reply once its writes are durable. */
  ask<K extends keyof H & string>(handler: K, arg: ArgOf<H, K>): Promise<ReplyOf<H, K>> {
    return this.system.deliver(this.def, this.id, handler, arg) as Promise<ReplyOf<H, K>>;
  }

  /** The actor's current in-memory state (activating it if needed), for reads only. */
  peek<S>(): Promise<S> {
    return this.system.peek(this.def, this.id) as Promise<S>;
  }
}

/** Runs the actors of one KV store; see the module doc. */
export class ActorSystem {
  readonly kv: Deno.Kv;
  readonly bus: EventBus;
  readonly committer: GroupCommitter;
  readonly now: () => number;
  #defs = new Map<string, AnyActorDef>();
  #instances = new Map<string, Instance>();
  #sweep: ReturnType<typeof setInterval>;
  #closed = false;
  #listening: Promise<void>;

  constructor(kv: Deno.Kv, options: ActorSystemOptions = {}) {
    this.kv = kv;
    this.bus = options.bus ?? new EventBus();
    this.committer = new GroupCommitter(kv, { grouping: options.grouping });
    this.now = options.now ?? Date.now;
    this.#sweep = setInterval(() => this.#passivateIdle(), options.sweepMs ?? 10_000);
    Deno.unrefTimer(Number(this.#sweep));
    this.#listening = kv.listenQueue((raw) => this.#onQueueMessage(raw));
  }

  /** Makes a kind known before any message to it, so timers of a restarted process find it. */
  register(...defs: AnyActorDef[]): void {
    for (const def of defs) {
      const known = this.#defs.get(def.kind);
      if (known && known !== def) throw new Error(`Actor kind ${def.kind} registered twice`);
      this.#defs.set(def.kind, def);
    }
  }

  /** The address of actor `id` of kind `def`. */
  ref<D extends AnyActorDef>(def: D, id: string | number): ActorRef<D["handlers"]> {
    this.register(def);
    return new ActorRef(this, def, String(id));
  }

  /** Number of live (activated) actors; for tests and metrics. */
  get liveActors(): number {
    return this.#instances.size;
  }

  /** Stops timers and the queue listener. The caller closes the KV handle afterwards. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#sweep);
    await Promise.allSettled([...this.#instances.values()].map((i) => i.outputs));
  }

  /** Resolves when the queue listener has ended (after the KV handle is closed). */
  get listening(): Promise<void> {
    return this.#listening;
  }

  deliver(def: AnyActorDef, id: string, handler: string, arg: unknown): Promise<unknown> {
    if (this.#closed) return Promise.reject(new Error("Actor system is closed"));
    if (!(handler in def.handlers)) {
      return Promise.reject(new Error(`Actor ${def.kind} has no handler ${handler}`));
    }
    return new Promise((resolve, reject) => {
      this.#enqueue(def, id, { handler, arg, resolve, reject });
    });
  }

  async peek(def: AnyActorDef, id: string): Promise<unknown> {
    const instance = this.#instance(def, id);
    await instance.ready;
    instance.lastUsed = this.now();
    return instance.state;
  }

  #instance(def: AnyActorDef, id: string): Instance {
    const key = `${def.kind}\u0000${id}`;
    let instance = this.#instances.get(key);
    if (!instance) {
      instance = new Instance(def, id, this);
      instance.lastUsed = this.now();
      this.#instances.set(key, instance);
      instance.ready.catch(() => this.#evict(instance!));
    }
    return instance;
  }

  #enqueue(def: AnyActorDef, id: string, envelope: Envelope): void {
    const instance = this.#instance(def, id);
    instance.mailbox.push(envelope);
    if (!instance.running) this.#run(instance);
  }

  async #run(instance: Instance): Promise<void> {
    instance.running = true;
    try {
      await instance.ready;
    } catch (error) {
      for (const envelope of instance.mailbox.splice(0)) envelope.reject(error);
      instance.running = false;
      return;
    }
    while (instance.mailbox.length > 0) {
      const envelope = instance.mailbox.shift()!;
      if (instance.evicted) {
        // A failed commit evicted this instance: hand the message to a fresh activation.
        this.#enqueue(instance.def, instance.id, envelope);
        continue;
      }
      instance.lastUsed = this.now();
      await this.#handle(instance, envelope);
    }
    instance.running = false;
  }

  async #handle(instance: Instance, envelope: Envelope): Promise<void> {
    const mutations: Mutation[] = [];
    const events: BusEvent[] = [];
    const timerChanges = new Map<string, number | null>();
    const kind = instance.def.kind;

    if (envelope.timer) {
      const { timerId, dueAt } = envelope.timer;
      if (instance.timers.get(timerId) !== dueAt) return envelope.resolve(undefined);
      if (dueAt > this.now() + 1000) {
        // Capped delay ran out before the due time: arm the rest.
        mutations.push(this.#timerEnqueue(kind, instance.id, timerId, dueAt, envelope));
        return this.#release(instance, mutations, events, envelope, undefined);
      }
      instance.timers.delete(timerId);
      mutations.push({ type: "delete", key: timerKey(kind, instance.id, timerId) });
    }

    const ctx: ActorContext<unknown> = {
      id: instance.id,
      state: instance.state,
      now: this.now(),
      kv: this.kv,
      system: this,
      set: (key, value) => mutations.push({ type: "set", key, value }),
      delete: (key) => mutations.push({ type: "delete", key }),
      emit: (event) => events.push(event),
      setTimer: (timerId, dueAt, handler, arg) => {
        if (!(handler in instance.def.handlers)) {
          throw new Error(`Actor ${kind} has no handler ${handler} for timer ${timerId}`);
        }
        timerChanges.set(timerId, dueAt);
        mutations.push({ type: "set", key: timerKey(kind, instance.id, timerId), value: dueAt });
        mutations.push(
          this.#timerEnqueue(kind, instance.id, timerId, dueAt, { handler, arg }),
        );
      },
      cancelTimer: (timerId) => {
        timerChanges.set(timerId, null);
        mutations.push({ type: "delete", key: timerKey(kind, instance.id, timerId) });
      },
      timerDue: (timerId) =>
        timerChanges.has(timerId)
          ? timerChanges.get(timerId) ?? undefined
          : instance.timers.get(timerId),
    };

    let reply: unknown;
    try {
      reply = await instance.def.handlers[envelope.handler](ctx, envelope.arg);
    } catch (error) {
      if (mutations.length > (envelope.timer ? 1 : 0)) this.#evict(instance);
      else if (envelope.timer) {
        // The timer fired and its handler failed: the timer is spent all the same.
        this.committer.commit(mutations).catch(() => {});
      }
      envelope.reject(error);
      return;
    }
    for (const [timerId, dueAt] of timerChanges) {
      if (dueAt === null) instance.timers.delete(timerId);
      else instance.timers.set(timerId, dueAt);
    }
    this.#release(instance, mutations, events, envelope, reply);
  }

  /** Commits the writes, then (in order with earlier messages) publishes events and replies. */
  #release(
    instance: Instance,
    mutations: Mutation[],
    events: BusEvent[],
    envelope: Envelope,
    reply: unknown,
  ): void {
    const committed = this.committer.commit(mutations);
    const previous = instance.outputs;
    instance.pendingOutputs++;
    instance.outputs = (async () => {
      await previous;
      try {
        await committed;
      } catch (error) {
        this.#evict(instance);
        envelope.reject(error);
        return;
      } finally {
        instance.pendingOutputs--;
      }
      for (const event of events) this.bus.publish(event);
      envelope.resolve(reply);
    })();
  }

  #timerEnqueue(
    kind: string,
    id: string,
    timerId: string,
    dueAt: number,
    target: { handler: string; arg?: unknown },
  ): Mutation {
    const message: TimerMessage = {
      t: "actor-timer",
      kind,
      id,
      timerId,
      dueAt,
      handler: target.handler,
      arg: target.arg ?? null,
    };
    const delay = Math.min(MAX_DELAY_MS, Math.max(0, dueAt - this.now()));
    return { type: "enqueue", value: message, delay };
  }

  /** Routes a delivered timer into its actor's mailbox; the actor decides if it is stale. */
  #onQueueMessage(raw: unknown): Promise<void> | void {
    const parsed = TimerMessage.safeParse(raw);
    if (!parsed.success || this.#closed) return;
    const message = parsed.data;
    const def = this.#defs.get(message.kind);
    if (!def) {
      console.error(`Timer for unknown actor kind ${message.kind} dropped`);
      return;
    }
    return new Promise<void>((resolve) => {
      this.#enqueue(def, message.id, {
        handler: message.handler,
        arg: message.arg,
        timer: { timerId: message.timerId, dueAt: message.dueAt },
        resolve: () => resolve(),
        reject: (error) => {
          console.error(`Timer ${message.kind}/${message.id}/${message.timerId} failed`, error);
          resolve();
        },
      });
    });
  }

  #evict(instance: Instance): void {
    instance.evicted = true;
    const key = `${instance.def.kind}\u0000${instance.id}`;
    if (this.#instances.get(key) === instance) this.#instances.delete(key);
  }

  #passivateIdle(): void {
    const now = this.now();
    for (const instance of this.#instances.values()) {
      const idleMs = instance.def.idleMs ?? 5 * 60_000;
      if (
        !instance.running && instance.mailbox.length === 0 && instance.pendingOutputs === 0 &&
        now - instance.lastUsed > idleMs
      ) {
        this.#evict(instance);
      }
    }
  }

  /** Drops idle actors now (tests use it to prove activation reloads from KV). */
  passivateAll(): void {
    for (const instance of this.#instances.values()) {
      if (!instance.running && instance.mailbox.length === 0 && instance.pendingOutputs === 0) {
        this.#evict(instance);
      }
    }
  }
}
