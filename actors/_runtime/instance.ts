/**
 * One live actor inside an ActorSystem: its state, armed timers, mailbox and the chain of
 * outputs (commits) not yet durable. Only system.ts uses it.
 */
import type { AnyActorDef } from "./actor.ts";
import type { ActorSystem } from "./system.ts";
import { timerPrefix } from "./timers.ts";

/** One message in a mailbox. */
export interface Envelope {
  handler: string;
  arg: unknown;
  /** Set for timer deliveries: the handler runs only if this timer is still armed at dueAt. */
  timer?: { timerId: string; dueAt: number };
  resolve: (value: unknown) => void;
  /** The handler ran and failed, or its writes could not be committed. */
  reject: (error: unknown) => void;
  /** The handler never ran (activation failed, the actor was reset): the sender may retry. */
  undelivered: (error: unknown) => void;
}

/** A live actor; see the module doc. */
export class Instance {
  state: unknown;
  timers = new Map<string, number>();
  mailbox: Envelope[] = [];
  running = false;
  lastUsed = 0;
  /** Settles when every write so far of this actor is durable or refused (rejects never). */
  outputs: Promise<void> = Promise.resolve();
  pendingOutputs = 0;
  evicted = false;
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
  ) {
    this.ready = this.#activate(system, after);
  }

  /** True when nothing is queued, running or waiting for a commit: safe to drop. */
  get idle(): boolean {
    return !this.running && this.mailbox.length === 0 && this.pendingOutputs === 0;
  }

  async #activate(system: ActorSystem, after: Promise<void>): Promise<void> {
    await after;
    const [state, timers] = await Promise.all([
      this.def.load(system.kv, this.id, system),
      Array.fromAsync(system.kv.list<number>({ prefix: timerPrefix(this.def.kind, this.id) })),
    ]);
    this.state = state;
    for (const entry of timers) this.timers.set(String(entry.key[3]), entry.value);
  }
}
