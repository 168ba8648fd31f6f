/**
 * The actor system: addressing (`ref(def, id)`), activation, mailboxes, the output gate,
 * timers and passivation. One system per KV handle.
 *
 * Output gate (after Cloudflare Durable Objects): once a handler has returned, its writes are
 * handed to the group committer and the mailbox goes on with the next message at once; the
 * handler's reply (or error) and events are held until its writes, and those of every earlier
 * message of the same actor, are durable. A hot actor therefore handles messages at CPU speed
 * while no client or subscriber ever learns of a write that a crash could undo.
 *
 * Eviction: an actor whose handler threw after recording writes, or whose writes KV refused,
 * is dropped; its queued messages move, in order, to a fresh activation that loads only after
 * every write of the old one has settled, so it sees exactly the committed state. A unit KV
 * would refuse outright (a value over 64 KiB…) is detected before the next message runs.
 * A unit refused later (an I/O error) is rare; messages handled after it in the meantime keep
 * their own commits.
 *
 * Several processes (issue #35, `cluster`): a company's actors run only in the process that
 * holds its lease, and the committer fences their writes (committer.ts). The platform's actors
 * (company 0: users, companies, plans, platform settings, the billing registry) run in every
 * process instead: each write of one carries a check of the actor's version key
 * (`["actor_version", kind, id]`), the actor handles its next message only once that write is
 * durable, and a write refused because another process wrote first reloads the actor and
 * handles the message again (`SHARED_RETRIES`). A process notices another's writes within
 * `SHARED_REFRESH_MS` (an idle instance whose version moved is dropped and reloads), or at
 * once when asked (`refresh`).
 */
import { SliceTurns } from "./slices.ts";
import type { BusEvent } from "../../domain/events.ts";
import type { AnyActorDef, ArgOf, Handler, ReplyOf } from "./actor.ts";
import { EventBus } from "./bus.ts";
import { HandlerRun } from "./context.ts";
import { CommitLink } from "./commit_link.ts";
import { CheckFailed, fenced, GroupCommitter, type Mutation, type WriteUnit } from "./committer.ts";
import { actorVersionKey, type Envelope, Instance, type Output } from "./instance.ts";

export { actorVersionKey };
import { type Alarm, AlarmClock } from "./alarms.ts";
import {
  actorCompany,
  companyTimersPrefix,
  EARLY_TOLERANCE_MS,
  legacyTimerKey,
  timerKey,
  TimerMessage,
} from "./timers.ts";
import { log } from "./log.ts";

export interface ActorSystemOptions {
  bus?: EventBus;
  /** Naive one-commit-per-write path, for the benchmark's comparison. */
  grouping?: boolean;
  /** Clock, replaceable in tests. */
  now?: () => number;
  /**
   * The time of the sender's context when it has one of its own, else undefined: read when a
   * message is sent and given to its handler as `now`. A replay (server/seed/history) plays
   * several customers' days side by side, each in its own context and time, while one
   * mailbox (a company's ticket desk) serves them all; the system's clock alone could not say
   * whose time a message is. Unset in a live server: a handler's now is the clock's.
   */
  senderNow?: () => number | undefined;
  /**
   * The clock timers ring by and idle actors age by; `now` when unset. A replay's lanes each
   * read their own `now`, so its timers go by the replay's shared time instead.
   */
  timersNow?: () => number;
  /** How often idle actors are looked for, in ms. */
  sweepMs?: number;
  /** Records a company's area needs before its actor keeps a snapshot (record_snapshot.ts). */
  snapshotMinRecords?: number;
  /**
   * Whether this system runs every company of the store (a process alone): it then arms every
   * stored timer at once. A process of several arms a company's timers when it takes the
   * company (`armTimersOf`). Default true.
   */
  ownsAll?: boolean;
  /**
   * One of several processes over one store (issue #35): the platform's actors version their
   * writes (see the module doc). Implies `ownsAll: false`.
   */
  cluster?: boolean;
}

/** How often a process looks for the platform actors other processes wrote (cluster only). */
export const SHARED_REFRESH_MS = 1000;
/**
 * How often a message to a platform actor is handled again after another process wrote first,
 * each after a random wait that grows (two processes writing one actor flat out would otherwise
 * keep refusing each other).
 */
const SHARED_RETRIES = 30;


/** Typed handle to one actor. */
export class ActorRef<H extends Record<string, Handler<never>>> {
  constructor(readonly system: ActorSystem, readonly def: AnyActorDef, readonly id: string) {}

  /** Sends `arg` to handler `handler` and resolves with its reply once its writes are durable. */
  ask<K extends keyof H & string>(handler: K, arg: ArgOf<H, K>): Promise<ReplyOf<H, K>> {
    return this.system.deliver(this.def, this.id, handler, arg) as Promise<ReplyOf<H, K>>;
  }

  /**
   * `ask` whose writes wait for a second actor's (commit_link.ts): `queued` resolves with the
   * reply and the link as soon as the handler has run, `durable` once its writes are durable,
   * which is when the link was joined (`askJoined`) or released alone and that commit landed.
   * The reply at `queued` is not durable yet: nothing may be told of it before `durable`.
   */
  askLinked<K extends keyof H & string>(
    handler: K,
    arg: ArgOf<H, K>,
  ): { queued: Promise<{ reply: ReplyOf<H, K>; link: CommitLink }>; durable: Promise<ReplyOf<H, K>> } {
    const queued = Promise.withResolvers<{ reply: ReplyOf<H, K>; link: CommitLink }>();
    const hold = (reply: unknown, link: CommitLink) => queued.resolve({ reply: reply as ReplyOf<H, K>, link });
    const durable = this.system.deliver(this.def, this.id, handler, arg, { hold });
    durable.catch(queued.reject); // the handler failed before it held anything
    return { queued: queued.promise, durable: durable as Promise<ReplyOf<H, K>> };
  }

  /** `ask` whose writes commit in one atomic with those `link` holds (commit_link.ts). */
  askJoined<K extends keyof H & string>(handler: K, arg: ArgOf<H, K>, link: CommitLink): Promise<ReplyOf<H, K>> {
    return this.system.deliver(this.def, this.id, handler, arg, { join: link }) as Promise<ReplyOf<H, K>>;
  }

  /** Tells the system this actor's id was allocated just now: see ActorSystem.created. */
  created(): void {
    this.system.created(this.def, this.id);
  }

  /** The actor's current in-memory state (activating it if needed), for reads only. */
  peek<S>(): Promise<S> {
    return this.system.peek(this.def, this.id) as Promise<S>;
  }

  /** The state if the actor is live and loaded, else undefined (see ActorSystem.peekNow). */
  peekNow<S>(): S | undefined {
    return this.system.peekNow(this.def, this.id) as S | undefined;
  }

  /** The state if the actor is live, loaded and idle, else undefined (see ActorSystem.peekIdle). */
  peekIdle<S>(): S | undefined {
    return this.system.peekIdle(this.def, this.id) as S | undefined;
  }
}

const instanceKey = (kind: string, id: string) => `${kind}\u0000${id}`;

/** Runs the actors of one KV store; see the module doc. */
export class ActorSystem {
  readonly kv: Deno.Kv;
  readonly bus: EventBus;
  readonly committer: GroupCommitter;
  readonly now: () => number;
  readonly #senderNow?: () => number | undefined;
  readonly #timersNow: () => number;
  /** See ActorSystemOptions. */
  readonly snapshotMinRecords: number;
  /** The turns every background job of this system rests through (slices.ts). */
  readonly slices = new SliceTurns();
  #defs = new Map<string, AnyActorDef>();
  /** Live instances by kind, then id: no key string is built per message. */
  #instances = new Map<string, Map<string, Instance>>();
  #live = 0;
  /** Outputs of evicted instances still settling, by instance key. */
  #retiring = new Map<string, Promise<void>>();
  /** Timer deliveries waiting for their kind to be registered (a restart's first moments). */
  #awaitingKind = new Map<string, Array<PromiseWithResolvers<AnyActorDef>>>();
  /** Messages accepted and not yet settled; `close` waits until none are left. */
  #inflight = 0;
  #allSettled?: PromiseWithResolvers<void>;
  #sweep: ReturnType<typeof setInterval>;
  /** A cluster's live platform actors, which `#refreshShared` checks (not every instance). */
  readonly #shared = new Set<Instance>();
  #closed = false;
  /** Set when close() starts: background work stops at its next pause. */
  #stopping = false;
  #background = new Set<Promise<unknown>>();
  #listening: Promise<void>;
  /** Resolved when close() ends: what `listening` waits for when the store has no queues. */
  #closedSignal = Promise.withResolvers<void>();
  /** Wakes the timers of the companies this system runs (alarms.ts). */
  readonly alarms: AlarmClock;
  /**
   * Whether the store holds timers in the layout before issue #35 (timers.ts): only then does
   * an activation read that layout too, one list more per actor.
   */
  readonly legacyTimers: Promise<boolean>;
  /** One of several processes over the store (see the module doc). */
  readonly cluster: boolean;
  #refreshing?: ReturnType<typeof setInterval>;

  constructor(kv: Deno.Kv, options: ActorSystemOptions = {}) {
    this.kv = kv;
    this.bus = options.bus ?? new EventBus();
    this.now = options.now ?? Date.now;
    this.committer = new GroupCommitter(kv, { grouping: options.grouping, now: this.now });
    this.#senderNow = options.senderNow;
    this.#timersNow = options.timersNow ?? this.now;
    this.snapshotMinRecords = options.snapshotMinRecords ?? 50_000;
    this.#sweep = setInterval(() => this.#passivateIdle(), options.sweepMs ?? 10_000);
    Deno.unrefTimer(Number(this.#sweep));
    // Only an older store's timers still come as queue messages (timers.ts).
    // A remote store (KV Connect) has no queues: its listener fails at once, and since no timer
    // of this layout can be there, the system runs without one (ending when it closes, as the
    // listener would).
    this.#listening = (async () => await kv.listenQueue((raw) => this.#onQueueMessage(raw)))().catch((error) => {
      if (this.#stopping) throw error;
      log.info("the store has no queues (KV Connect): timers are woken by this process's alarms only", { error: String(error) });
      return this.#closedSignal.promise;
    });
    this.alarms = new AlarmClock((alarm) => this.#deliverTimer(alarm), this.#timersNow);
    this.legacyTimers = (async () => {
      // Keys sort strings before numbers: an older key, if any, comes first.
      for await (const entry of kv.list({ prefix: ["timer"] }, { limit: 1 })) return typeof entry.key[1] === "string";
      return false;
    })();
    this.legacyTimers.catch(() => {}); // read by activations, which report a failure
    this.cluster = options.cluster ?? false;
    if (this.cluster) {
      this.#refreshing = setInterval(() => this.#refreshShared().catch(() => {}), SHARED_REFRESH_MS);
      Deno.unrefTimer(Number(this.#refreshing));
    } else if (options.ownsAll ?? true) {
      this.background("Arming the stored timers", () => this.alarms.armFrom(kv, ["timer"]));
    }
  }

  /** Whether actor `id` is one of the platform's, run by every process of a cluster. */
  isShared(id: string): boolean {
    return this.cluster && actorCompany(id) === 0;
  }

  /**
   * Drops platform actor `id` of kind `def` when another process wrote it since it loaded, so
   * the next read loads what is stored (a login by an e-mail this process does not know yet).
   */
  async refresh(def: AnyActorDef, id: string): Promise<void> {
    const instance = this.#instances.get(def.kind)?.get(id);
    if (!instance?.loaded || !this.isShared(id)) return;
    const stored = await this.kv.get(actorVersionKey(def.kind, id));
    if (stored.versionstamp !== instance.version && instance.idle) this.#evict(instance);
  }

  /** Drops the idle platform actors whose version moved (see the module doc). */
  async #refreshShared(): Promise<void> {
    const shared = [...this.#shared].filter((i) => i.loaded && !i.evicted);
    for (let n = 0; n < shared.length; n += 10) {
      const slice = shared.slice(n, n + 10);
      const stored = await this.kv.getMany(slice.map((i) => actorVersionKey(i.def.kind, i.id)));
      slice.forEach((instance, k) => {
        if (stored[k].versionstamp !== instance.version && instance.idle) this.#evict(instance);
      });
    }
  }

  /** Arms the stored timers of company `companyId` (the process has taken it). */
  armTimersOf(companyId: number): Promise<number> {
    return this.alarms.armFrom(this.kv, companyTimersPrefix(companyId));
  }

  /**
   * Resolves once no accepted message is left unsettled: a replay (server/seed/history) waits
   * here for what a timer it rang set going before it moves its clock on.
   */
  async idle(): Promise<void> {
    while (this.#inflight > 0) await (this.#allSettled ??= Promise.withResolvers<void>()).promise;
  }

  /** Makes a kind known before any message to it, so timers of a restarted process find it. */
  register(...defs: AnyActorDef[]): void {
    for (const def of defs) {
      const known = this.#defs.get(def.kind);
      if (known && known !== def) throw new Error(`Actor kind ${def.kind} registered twice`);
      this.#defs.set(def.kind, def);
      for (const waiter of this.#awaitingKind.get(def.kind) ?? []) waiter.resolve(def);
      this.#awaitingKind.delete(def.kind);
    }
  }

  /** The address of actor `id` of kind `def`. */
  ref<D extends AnyActorDef>(def: D, id: string | number): ActorRef<D["handlers"]> {
    // Every message on the path takes a ref: a known kind skips register's waiter bookkeeping.
    if (this.#defs.get(def.kind) !== def) this.register(def);
    return new ActorRef(this, def, String(id));
  }

  /** Number of live (activated) actors; for tests and metrics. */
  get liveActors(): number {
    return this.#live;
  }

  /** Messages accepted and not yet settled (handled, or waiting in a mailbox); for metrics. */
  get inflight(): number {
    return this.#inflight;
  }

  /**
   * The `count` deepest mailboxes now (messages queued, the one running excluded), deepest
   * first, with their actors' kinds: what a metrics scrape reports. One pass over the live
   * actors, read when asked; nothing is counted on the message path.
   */
  deepestMailboxes(count: number): Array<{ kind: string; depth: number }> {
    const top: Array<{ kind: string; depth: number }> = [];
    for (const instance of this.#allInstances()) {
      const depth = instance.mailbox.length;
      if (depth === 0 || (top.length === count && depth <= top[count - 1].depth)) continue;
      let at = top.length;
      while (at > 0 && top[at - 1].depth < depth) at--;
      top.splice(at, 0, { kind: instance.def.kind, depth });
      if (top.length > count) top.pop();
    }
    return top;
  }

  /**
   * The states of the loaded actors of kind `def`, by id, without activating any or counting
   * as a use (passivation is unaffected): for metrics of the in-memory read models.
   */
  *liveStates<S>(def: AnyActorDef): Generator<[id: string, state: S]> {
    const ofKind = this.#instances.get(def.kind);
    if (!ofKind) return;
    for (const instance of ofKind.values()) if (instance.warm) yield [instance.id, instance.state as S];
  }

  /**
   * Stops the sweep, lets every accepted message finish (handlers may still ask other actors,
   * timers that come due meanwhile still run) and waits until all writes are durable; then
   * refuses asks and hands timer deliveries back to KV, which delivers them again after a
   * restart. The caller closes the KV handle afterwards.
   */
  async close(): Promise<void> {
    clearInterval(this.#sweep);
    clearInterval(this.#refreshing);
    this.alarms.stop();
    this.#stopping = true;
    await Promise.allSettled([...this.#background]);
    for (const waiters of this.#awaitingKind.values()) {
      for (const waiter of waiters) waiter.reject(new Error("Actor system is closed"));
    }
    this.#awaitingKind.clear();
    while (this.#inflight > 0) await (this.#allSettled ??= Promise.withResolvers<void>()).promise;
    await Promise.allSettled([...this.#allInstances()].map((i) => i.outputs));
    await Promise.allSettled([...this.#retiring.values()]);
    this.#closed = true;
    this.#closedSignal.resolve();
  }

  /**
   * Runs work an actor started beside its mailbox (a snapshot save, record_snapshot.ts):
   * `running()` turns false once close() starts, and close() waits for the work to end, so
   * nothing is left writing to a closed store. Its failure is logged, unless it came from
   * the close.
   */
  background(name: string, work: (running: () => boolean) => Promise<unknown>): void {
    if (this.#stopping) return;
    const running = () => !this.#stopping;
    const task = work(running)
      .catch((error) => {
        if (running()) log.error(`${name} failed`, { error });
      })
      .finally(() => this.#background.delete(task));
    this.#background.add(task);
  }

  /** Resolves when the queue listener has ended (after the KV handle is closed). */
  get listening(): Promise<void> {
    return this.#listening;
  }

  /**
   * Queues a message for actor `id`; resolves with the reply once its writes are durable.
   * `link` holds its writes or joins them to held ones (ActorRef.askLinked, askJoined).
   */
  deliver(
    def: AnyActorDef,
    id: string,
    handler: string,
    arg: unknown,
    link?: Pick<Envelope, "hold" | "join">,
  ): Promise<unknown> {
    if (this.#closed) return Promise.reject(new Error("Actor system is closed"));
    if (this.cluster && !this.#owns(id)) return Promise.reject(fenced(actorCompany(id)));
    if (!(handler in def.handlers)) {
      return Promise.reject(new Error(`Actor ${def.kind} has no handler ${handler}`));
    }
    const { promise, resolve, reject } = Promise.withResolvers<unknown>();
    const once = this.#accept();
    const failed = (error: unknown) => once() && reject(error);
    this.#enqueue(def, id, {
      handler,
      arg,
      at: this.#senderNow?.(),
      resolve: (reply) => once() && resolve(reply),
      reject: failed,
      undelivered: failed,
      ...link,
    });
    return promise;
  }

  /** The in-memory state of actor `id`, activating it if needed. */
  peek(def: AnyActorDef, id: string): Promise<unknown> {
    if (this.#closed) return Promise.reject(new Error("Actor system is closed"));
    const instance = this.#instances.get(def.kind)?.get(id);
    // Warm: no async function and no suspension (reads on every message's path peek).
    if (instance?.warm) return Promise.resolve(this.#read(instance));
    if (this.cluster && !this.#owns(id)) return Promise.reject(fenced(actorCompany(id)));
    return this.#peekLoading(this.#instance(def, id));
  }

  /**
   * Whether this process runs actor `id`'s company: always for a process alone and for the
   * platform's actors; in a cluster, only a company it holds the lease of (committer.ts Fence).
   * An instance of a company let go is evicted (server/cluster/), so a warm one is held.
   */
  #owns(id: string): boolean {
    return this.owns(actorCompany(id));
  }

  /** Whether this process runs company `companyId`'s actors (see `#owns`). */
  owns(companyId: number): boolean {
    return !this.cluster || companyId === 0 || this.committer.fence?.of(companyId) !== undefined;
  }


  async #peekLoading(instance: Instance): Promise<unknown> {
    try {
      await instance.ready;
    } catch (error) {
      if (instance.idle) this.#evict(instance);
      throw error;
    }
    return this.#read(instance);
  }

  /** A live instance's state, for reading: counts as a use (it delays passivation). */
  #read(instance: Instance): unknown {
    instance.lastUsed = this.#timersNow();
    return instance.state;
  }

  /**
   * The state of actor `id` if it is live and loaded, else undefined: a read that needs no
   * turn of the event loop, for hot paths that fall back to `peek` (tickets/view.ts).
   */
  peekNow(def: AnyActorDef, id: string): unknown {
    const instance = this.#instances.get(def.kind)?.get(id);
    return instance?.warm ? this.#read(instance) : undefined;
  }

  /**
   * The state of actor `id` if it is live, loaded and idle (nothing queued, running or being
   * written), else undefined: what its next message would find, read without one, for a hot
   * path whose usual answer is that nothing needs deciding (server/conversation/engine.ts).
   */
  peekIdle(def: AnyActorDef, id: string): unknown {
    const instance = this.#instances.get(def.kind)?.get(id);
    return instance?.warm && instance.idle ? this.#read(instance) : undefined;
  }

  /**
   * Waits for the writes in flight of company `companyId`'s actors, then drops them (the
   * process let the company go, issue #35); asks that come later are refused.
   */
  async evictCompany(companyId: number): Promise<void> {
    const ofCompany = (id: string) => actorCompany(id) === companyId;
    await Promise.allSettled([...this.#allInstances()].filter((i) => ofCompany(i.id)).map((i) => i.outputs));
    this.evictWhere((_kind, id) => ofCompany(id));
  }

  /** Drops idle actors now (tests use it to prove activation reloads from KV). */
  passivateAll(): void {
    for (const instance of [...this.#allInstances()]) {
      if (instance.idle) this.#evict(instance);
    }
  }

  /** Kinds registered so far (collections appear as `collection:{name}`). */
  get kinds(): string[] {
    return [...this.#defs.keys()];
  }

  /**
   * Drops every live actor for which `predicate(kind, id)` holds (a deleted company's actors,
   * so nothing stale answers afterwards); queued messages go to a fresh activation, as on any
   * eviction. Returns how many were dropped.
   */
  evictWhere(predicate: (kind: string, id: string) => boolean): number {
    let dropped = 0;
    for (const instance of [...this.#allInstances()]) {
      if (!predicate(instance.def.kind, instance.id)) continue;
      this.#evict(instance);
      dropped++;
    }
    return dropped;
  }

  /**
   * Counts an accepted message until it settles; returns the function its envelope calls
   * when it does, true the first time only (so the count drops once, however it settles).
   */
  #accept(): () => boolean {
    this.#inflight++;
    let open = true;
    return () => {
      if (!open) return false;
      open = false;
      if (--this.#inflight === 0) {
        this.#allSettled?.resolve();
        this.#allSettled = undefined;
      }
      return true;
    };
  }

  /**
   * Starts actor `id` with its kind's empty state (`ActorDef.empty`) without reading anything:
   * the caller allocated its id just now, so nothing of it can be stored (a new ticket's
   * messages and conversation, whose loads were most of a new conversation's reads). Nothing
   * happens when it is live or retiring already, when its kind has no empty state, or when
   * this process does not run its company (the next ask is refused as usual).
   */
  created(def: AnyActorDef, id: string): void {
    if (!def.empty || this.#stopping || this.isShared(id) || !this.#owns(id)) return;
    if (this.#instances.get(def.kind)?.has(id) || this.#retiring.has(instanceKey(def.kind, id))) return;
    this.#instance(def, id, { state: def.empty(id) });
  }

  #instance(def: AnyActorDef, id: string, empty?: { state: unknown }): Instance {
    let ofKind = this.#instances.get(def.kind);
    if (!ofKind) this.#instances.set(def.kind, ofKind = new Map());
    let instance = ofKind.get(id);
    if (!instance) {
      const after = this.#retiring.get(instanceKey(def.kind, id)) ?? Promise.resolve();
      instance = new Instance(def, id, this, after, empty);
      instance.ready.catch(() => {}); // handled by #run and peek
      instance.lastUsed = this.#timersNow();
      ofKind.set(id, instance);
      this.#live++;
      if (this.isShared(id)) this.#shared.add(instance);
    }
    return instance;
  }

  #enqueue(def: AnyActorDef, id: string, envelope: Envelope, first = false): void {
    const instance = this.#instance(def, id);
    if (first) instance.mailbox.unshift(envelope);
    else instance.mailbox.push(envelope);
    if (!instance.running) this.#run(instance);
  }

  async #run(instance: Instance): Promise<void> {
    instance.running = true;
    try {
      await instance.ready;
    } catch (error) {
      instance.running = false;
      const queued = instance.mailbox.splice(0);
      this.#evict(instance);
      for (const envelope of queued) envelope.undelivered(error);
      return;
    }
    while (instance.mailbox.length > 0 && !instance.evicted) {
      const envelope = instance.mailbox.shift()!;
      if (envelope.notBefore !== undefined && envelope.notBefore > this.now()) {
        await new Promise((resolve) => setTimeout(resolve, envelope.notBefore! - this.now()));
      }
      instance.lastUsed = this.#timersNow();
      await this.#handle(instance, envelope);
      // A joining handler that failed or never ran leaves the held unit to commit alone.
      envelope.join?.alone();
      if (instance.held) {
        // Held in a link (commit_link.ts): later writes of this actor must not land first.
        await instance.held;
        instance.held = undefined;
      }
    }
    instance.running = false;
  }

  async #handle(instance: Instance, envelope: Envelope): Promise<void> {
    const { kind } = instance.def;
    /** Writes that stand even if the handler fails: a fired timer is spent. */
    const spent: Mutation[] = [];
    if (envelope.timer) {
      const { timerId, dueAt } = envelope.timer;
      if (instance.timers.get(timerId) !== dueAt) return envelope.resolve(undefined);
      if (dueAt > this.#timersNow() + EARLY_TOLERANCE_MS) {
        // Early (a clock that moved, or an older store's capped queue delay): arm it again.
        this.#rearm(instance, envelope);
        return;
      }
      instance.timers.delete(timerId);
      spent.push({ type: "delete", key: timerKey(kind, instance.id, timerId) });
      if (instance.legacyTimers?.delete(timerId)) {
        spent.push({ type: "delete", key: legacyTimerKey(kind, instance.id, timerId) });
      }
    }

    const run = new HandlerRun(this, instance, spent, envelope.at);
    let reply: unknown;
    let failure: { error: unknown } | undefined;
    try {
      reply = instance.def.handlers[envelope.handler](run, envelope.arg);
      // A synchronous handler's reply needs no extra turn.
      if (reply instanceof Promise) reply = await reply;
    } catch (error) {
      failure = { error };
    } finally {
      run.close();
    }
    if (instance.evicted) {
      // An earlier write of this actor failed while this handler ran on the state it assumed:
      // nothing of this run stands (a timer stays armed and KV delivers it again).
      return envelope.undelivered(
        failure?.error ?? new Error(`Actor ${kind} ${instance.id} was reset`),
      );
    }
    if (failure) return this.#fail(instance, envelope, spent, run.wrote, failure.error);
    const shared = run.wrote && this.isShared(instance.id);
    if (shared) {
      const key = actorVersionKey(kind, instance.id);
      run.mutations.push({ type: "check", key, versionstamp: instance.version ?? null }, { type: "set", key, value: this.now() });
    }
    const unit = this.committer.prepare(run.mutations);
    if (unit.error) return this.#fail(instance, envelope, spent, true, unit.error);
    unit.companyId = this.committer.fence ? actorCompany(instance.id) : undefined;
    run.applyTimers();
    // A platform actor's next message waits for this write (see the module doc).
    const written = shared ? Promise.withResolvers<void>() : undefined;
    if (written) instance.held = written.promise;
    const link = this.#release(instance, unit, run.events, (versionstamp) => {
      if (written) {
        instance.version = versionstamp;
        written.resolve();
      }
      run.armAlarms(this.alarms);
      run.runDurable();
      envelope.resolve(reply);
    }, (error) => {
      written?.resolve();
      if (written && error instanceof CheckFailed && (envelope.retries ?? 0) < SHARED_RETRIES) {
        // Another process wrote first: handled again, first, by a fresh activation.
        const retries = (envelope.retries ?? 0) + 1;
        const notBefore = this.now() + Math.random() * Math.min(100, 2 * retries);
        return this.#enqueue(instance.def, instance.id, { ...envelope, retries, notBefore }, true);
      }
      envelope.reject(error);
    }, envelope.hold ? "hold" : envelope.join);
    if (link) {
      instance.held = link.released;
      envelope.hold!(reply, link);
    }
  }

  /**
   * A timer delivered before its due time: its alarm is armed again. One of an older store
   * (a queue message whose delay KV capped) moves to the current layout on the way.
   */
  #rearm(instance: Instance, envelope: Envelope): void {
    const { kind } = instance.def;
    const { timerId, dueAt } = envelope.timer!;
    const alarm: Alarm = { kind, id: instance.id, timerId, dueAt, handler: envelope.handler, arg: envelope.arg };
    const armed = () => {
      this.alarms.arm(alarm);
      envelope.resolve(undefined);
    };
    if (!instance.legacyTimers?.delete(timerId)) return armed();
    this.#release(instance, [
      { type: "set", key: timerKey(kind, instance.id, timerId), value: { dueAt, handler: alarm.handler, arg: alarm.arg } },
      { type: "delete", key: legacyTimerKey(kind, instance.id, timerId) },
    ], [], armed, envelope.reject);
  }

  /** A handler failed: commit only what is spent anyway; drop the state if it was written to. */
  #fail(
    instance: Instance,
    envelope: Envelope,
    spent: Mutation[],
    wrote: boolean,
    error: unknown,
  ): void {
    const rejectWithCause = () => envelope.reject(error);
    this.#release(instance, spent, [], rejectWithCause, rejectWithCause);
    if (wrote) this.#evict(instance);
  }

  /**
   * Commits the writes, then (in order with earlier messages of the actor) publishes the events
   * and calls `done`; if KV refuses the writes, evicts the actor and calls `failed` instead.
   * `via` "hold" holds the writes in the link it returns; a link joins them to its held unit.
   */
  #release(
    instance: Instance,
    unit: Mutation[] | WriteUnit,
    events: BusEvent[],
    done: (versionstamp?: string) => void,
    failed: (error: unknown) => void,
    via?: "hold" | CommitLink,
  ): CommitLink | undefined {
    const output: Output = { settled: false, events, done, failed };
    instance.outputQueue.push(output);
    const prepared = Array.isArray(unit) ? this.committer.prepare(unit) : unit;
    const settled = (error?: unknown, versionstamp?: string) => {
      output.settled = true;
      output.error = error;
      output.versionstamp = versionstamp;
      this.#releaseOutputs(instance);
    };
    if (via === "hold") return new CommitLink(this.committer, prepared, settled);
    if (via instanceof CommitLink && via.join(prepared, settled)) return undefined;
    this.committer.commitThen(prepared, settled);
    return undefined;
  }

  /**
   * Releases the instance's settled outputs from the oldest on, up to the first still in
   * flight: units commit in order, but an empty or refused one settles at once and must still
   * wait for the writes before it.
   */
  #releaseOutputs(instance: Instance): void {
    if (instance.releasing) return; // the loop below, further up the stack, goes on
    instance.releasing = true;
    const queue = instance.outputQueue;
    try {
      while (queue.length > 0 && queue[0].settled) {
        const output = queue.shift()!;
        try {
          if (output.error !== undefined) {
            this.#evict(instance);
            output.failed(output.error);
          } else {
            for (const event of output.events) this.bus.publish(event);
            output.done(output.versionstamp);
          }
        } catch (error) {
          // Never leave the outputs after this one waiting: log and go on.
          log.error(`Actor ${instance.def.kind} ${instance.id}: releasing an output failed`, { error });
        }
      }
    } finally {
      instance.releasing = false;
    }
    if (queue.length === 0) instance.drained();
  }

  /**
   * Routes a due alarm into its actor's mailbox; the actor decides if it is stale. One that
   * could not be handed over (the actor failed to activate) is armed again a second later.
   */
  async #deliverTimer(alarm: Alarm): Promise<void> {
    if (this.#stopping) return;
    try {
      await this.#routeTimer(alarm);
    } catch {
      if (!this.#stopping) this.alarms.arm(alarm, this.#timersNow() + 1000);
    }
  }

  /** Routes an older store's timer message into its actor's mailbox (timers.ts). */
  async #onQueueMessage(raw: unknown): Promise<void> {
    const parsed = TimerMessage.safeParse(raw);
    if (!parsed.success) return;
    await this.#routeTimer(parsed.data);
  }

  /** Hands a timer to its actor; resolves once handled, rejects if the actor could not take it. */
  async #routeTimer(message: Alarm): Promise<void> {
    // Timers that come due while close() drains still run. After that, a delivery is thrown
    // back: KV keeps the message and delivers it again (after the restart). One dequeued just
    // as the KV handle closes comes back only when KV's 60 s in-flight deadline passes.
    if (this.#closed) throw new Error("Actor system is closed");
    const def = this.#defs.get(message.kind) ?? await this.#awaitKind(message.kind);
    const { promise, resolve, reject } = Promise.withResolvers<void>();
    const once = this.#accept();
    this.#enqueue(def, message.id, {
      handler: message.handler,
      arg: message.arg,
      // A timer's handler runs at the time timers ring by (a replay's shared time).
      at: this.#senderNow ? this.#timersNow() : undefined,
      timer: { timerId: message.timerId, dueAt: message.dueAt },
      resolve: () => once() && resolve(),
      reject: (error) => {
        if (!once()) return;
        // The handler ran and failed: the timer is spent (its handler owns retries).
        log.error(`Timer ${message.kind}/${message.id}/${message.timerId} failed`, { error });
        resolve();
      },
      undelivered: (error) => once() && reject(error),
    });
    await promise;
  }

  /** Waits until kind `kind` is registered (a restarted process registers after it listens). */
  #awaitKind(kind: string): Promise<AnyActorDef> {
    const waiter = Promise.withResolvers<AnyActorDef>();
    const waiters = this.#awaitingKind.get(kind) ?? [];
    waiters.push(waiter);
    this.#awaitingKind.set(kind, waiters);
    return waiter.promise;
  }

  /** Drops the instance; its queued messages go, in order, to a fresh activation. */
  #evict(instance: Instance): void {
    if (instance.evicted) return;
    instance.evicted = true;
    const key = instanceKey(instance.def.kind, instance.id);
    const ofKind = this.#instances.get(instance.def.kind);
    if (ofKind?.get(instance.id) === instance) {
      ofKind.delete(instance.id);
      this.#live--;
    }
    this.#shared.delete(instance);
    const outputs = instance.outputs;
    this.#retiring.set(key, outputs);
    outputs.then(() => {
      if (this.#retiring.get(key) === outputs) this.#retiring.delete(key);
    });
    const queued = instance.mailbox.splice(0);
    if (queued.length === 0) return;
    const fresh = this.#instance(instance.def, instance.id);
    fresh.mailbox.unshift(...queued);
    if (!fresh.running) this.#run(fresh);
  }

  *#allInstances(): Generator<Instance> {
    for (const ofKind of this.#instances.values()) yield* ofKind.values();
  }

  #passivateIdle(): void {
    const now = this.#timersNow();
    for (const instance of [...this.#allInstances()]) {
      const idleMs = instance.def.idleMs ?? 5 * 60_000;
      if (instance.idle && now - instance.lastUsed > idleMs) this.#evict(instance);
    }
  }
}
