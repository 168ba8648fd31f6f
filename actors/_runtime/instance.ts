/**
 * One live actor inside an ActorSystem: its state, armed timers, mailbox and the queue of
 * outputs (replies and events) whose writes are not yet durable. Only system.ts uses it.
 */
import type { BusEvent } from "../../domain/events.ts";
import type { AnyActorDef } from "./actor.ts";
import type { ActorSystem } from "./system.ts";
import type { CommitLink } from "./commit_link.ts";
import { type ArmedTimer, legacyTimerPrefix, timerPrefix } from "./timers.ts";

/** The version key of a platform actor in a cluster (system.ts). */
export function actorVersionKey(kind: string, id: string): Deno.KvKey {
  return ["actor_version", kind, id];
}

/** One message in a mailbox. */
export interface Envelope {
  handler: string;
  arg: unknown;
  /**
   * The sender's own time, when its context has one (ActorSystemOptions.senderNow: a replay's
   * lane): the handler's `now`. Unset: the system's clock when the handler runs.
   */
  at?: number;
  /** Set for timer deliveries: the handler runs only if this timer is still armed at dueAt. */
  timer?: { timerId: string; dueAt: number };
  resolve: (value: unknown) => void;
  /** The handler ran and failed, or its writes could not be committed. */
  reject: (error: unknown) => void;
  /** The handler never ran (activation failed, the actor was reset): the sender may retry. */
  undelivered: (error: unknown) => void;
  /** Holds the handler's writes in a link and hands it over with the reply (ActorRef.askLinked). */
  hold?: (reply: unknown, link: CommitLink) => void;
  /** Commits the handler's writes with the unit this link holds (ActorRef.askJoined). */
  join?: CommitLink;
  /** How often a platform actor handled it again after another process wrote first (system.ts). */
  retries?: number;
  /** Not handled before this time (a retry's random wait, system.ts). */
  notBefore?: number;
}

/**
 * What a handled message releases once its writes are durable: its events and reply, or
 * its failure if KV refused them. `error` is set when settled as refused.
 */
export interface Output {
  settled: boolean;
  error?: unknown;
  /** The versionstamp of the atomic that made the writes durable. */
  versionstamp?: string;
  readonly events: readonly BusEvent[];
  readonly done: (versionstamp?: string) => void;
  readonly failed: (error: unknown) => void;
}

/** A live actor; see the module doc. */
export class Instance {
  state: unknown;
  /** Due time of each armed timer, by timer id. */
  timers = new Map<string, number>();
  /** The armed timers stored in an older store's layout (timers.ts), usually none. */
  legacyTimers?: Set<string>;
  mailbox: Envelope[] = [];
  running = false;
  lastUsed = 0;
  /**
   * Outputs not yet released, oldest first: released strictly in this order (system.ts), so
   * no reply or event overtakes an earlier write of the same actor.
   */
  readonly outputQueue: Output[] = [];
  /** Set while the system releases outputs, so a release it triggers does not nest. */
  releasing = false;
  #drained?: PromiseWithResolvers<void>;
  evicted = false;
  /** Set while a unit of this actor is held in a link: no message runs until it is released. */
  held?: Promise<void>;
  /** True once the state is loaded. */
  loaded = false;
  /** A platform actor's version key's versionstamp as of its load or its last write (system.ts). */
  version?: string | null;
  /** Settles when the state is loaded; rejects if loading failed. */
  readonly ready: Promise<void>;

  /**
   * Starts loading once `after` settles: the outputs of an evicted predecessor, so that a
   * reactivation never reads KV before the writes of the previous activation are durable.
   */
  constructor(
    readonly def: AnyActorDef,
    readonly id: string,
    system: ActorSystem,
    after: Promise<void>,
    /** The state of an actor known to have nothing stored (ActorSystem.created): no load. */
    empty?: { state: unknown },
  ) {
    if (empty) {
      this.state = empty.state;
      this.loaded = true;
      this.ready = Promise.resolve();
    } else this.ready = this.#activate(system, after);
  }

  /** True when nothing is queued, running or waiting for a commit: safe to drop. */
  get idle(): boolean {
    return !this.running && this.mailbox.length === 0 && this.outputQueue.length === 0;
  }

  /** Loaded and not evicted: its state can be read at once. */
  get warm(): boolean {
    return this.loaded && !this.evicted;
  }

  /** Settles when every output so far is released (every write durable or refused). */
  get outputs(): Promise<void> {
    if (this.outputQueue.length === 0) return Promise.resolve();
    return (this.#drained ??= Promise.withResolvers<void>()).promise;
  }

  /** Called by the system when the output queue has emptied. */
  drained(): void {
    this.#drained?.resolve();
    this.#drained = undefined;
  }

  async #activate(system: ActorSystem, after: Promise<void>): Promise<void> {
    await after;
    // A platform actor's version is read before its state: a write between the two reads
    // then fails its check, where the other order could miss it.
    if (system.isShared(this.id)) this.version = (await system.kv.get(actorVersionKey(this.def.kind, this.id))).versionstamp;
    const [state, timers, legacy] = await Promise.all([
      this.def.load(system.kv, this.id, system),
      Array.fromAsync(system.kv.list<ArmedTimer>({ prefix: timerPrefix(this.def.kind, this.id) })),
      system.legacyTimers.then((some) =>
        some ? Array.fromAsync(system.kv.list<number>({ prefix: legacyTimerPrefix(this.def.kind, this.id) })) : []
      ),
    ]);
    this.state = state;
    for (const entry of legacy) {
      this.timers.set(String(entry.key[3]), entry.value);
      (this.legacyTimers ??= new Set()).add(String(entry.key[3]));
    }
    for (const entry of timers) this.timers.set(String(entry.key[4]), entry.value.dueAt);
    this.loaded = true;
  }
}
