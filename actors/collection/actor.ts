/**
 * A collection actor: one small set of records (the queues of a company, all plans, the
 * users of the platform…) held in memory and written one record per KV key. Every write of a
 * collection goes through its actor, so checks that look at the other records (a unique
 * colour, one default connection, a unique e-mail) cannot race.
 *
 * Keys: `[name, scopeId, id] → record` and `["counter", name, scopeId] → last id`.
 * `scopeId` is the company id for per-company collections and 0 for platform-wide ones.
 * Reads (`list`, `get`) use the in-memory state through `peek`, without the mailbox.
 */
import type { BusEvent } from "../../domain/events.ts";
import { type ActorDef, defineActor } from "../_runtime/actor.ts";
import type { ActorSystem } from "../_runtime/system.ts";

/** Every record has a numeric id, unique within its collection's scope. */
export interface Row {
  id: number;
}

/** What a transaction function returns: records to write and ids to delete, and a reply. */
export interface Change<T extends Row, R> {
  put?: T[];
  remove?: number[];
  reply: R;
}

/** Read access and id allocation inside a transaction. */
export interface TxView<T extends Row> {
  readonly records: ReadonlyMap<number, T>;
  readonly scopeId: number;
  readonly now: number;
  nextId(): number;
}

export interface CollectionState<T extends Row> {
  records: Map<number, T>;
  counter: number;
  /** Bumped by every change of the records (views derived from them compare it). */
  revision?: number;
  /** Views derived from the records, with the revision each was built at (`derive`). */
  derived?: Map<string, { revision: number; value: unknown }>;
}

/** The declaration of one collection. */
export interface CollectionSpec<T extends Row> {
  /** KV prefix and actor kind suffix, e.g. `queue`. */
  readonly name: string;
  /** Parses a stored record (older versions included); defaults to a plain cast. */
  readonly parse?: (raw: unknown) => T;
  /** Extra KV writes that mirror a record (secondary indexes), written in the same atomic. */
  readonly mirrors?: (record: T) => Array<{ key: Deno.KvKey; value: unknown }>;
  /** Events to publish after a record was created, updated or deleted. */
  readonly events?: (action: "create" | "update" | "delete", record: T) => BusEvent[];
}

// deno-lint-ignore no-explicit-any -- a transaction's reply type is chosen by each caller.
type AnyTx = (view: TxView<any>) => Change<any, unknown>;

function defineCollectionActor<T extends Row>(spec: CollectionSpec<T>) {
  const parse = spec.parse ?? ((raw: unknown) => raw as T);
  return defineActor({
    kind: `collection:${spec.name}`,
    async load(kv, id): Promise<CollectionState<T>> {
      const scopeId = Number(id);
      const [entries, counter] = await Promise.all([
        Array.fromAsync(kv.list({ prefix: [spec.name, scopeId] })),
        kv.get<number>(["counter", spec.name, scopeId]),
      ]);
      const records = new Map<number, T>();
      for (const entry of entries) {
        const record = parse(entry.value);
        records.set(record.id, record);
      }
      const maxId = Math.max(0, ...records.keys());
      return { records, counter: Math.max(counter.value ?? 0, maxId) };
    },
    handlers: {
      /** Runs `fn` on the current records and applies its changes; replies with its reply. */
      transact(ctx, fn: AnyTx): unknown {
        const state = ctx.state;
        const scopeId = Number(ctx.id);
        let counter = state.counter;
        const change = fn({
          records: state.records,
          scopeId,
          now: ctx.now,
          nextId: () => ++counter,
        });
        if (change.put?.length || change.remove?.length) state.revision = (state.revision ?? 0) + 1;
        if (counter !== state.counter) {
          ctx.set(["counter", spec.name, scopeId], counter);
          state.counter = counter;
        }
        for (const id of change.remove ?? []) {
          const old = state.records.get(id);
          if (!old) continue;
          state.records.delete(id);
          ctx.delete([spec.name, scopeId, id]);
          for (const mirror of spec.mirrors?.(old) ?? []) ctx.delete(mirror.key);
          for (const event of spec.events?.("delete", old) ?? []) ctx.emit(event);
        }
        for (const record of change.put ?? []) {
          const old = state.records.get(record.id);
          state.records.set(record.id, record);
          ctx.set([spec.name, scopeId, record.id], record);
          const oldMirrors = old ? spec.mirrors?.(old) ?? [] : [];
          const newMirrors = spec.mirrors?.(record) ?? [];
          const newKeys = new Set(newMirrors.map((m) => JSON.stringify(m.key)));
          for (const mirror of oldMirrors) {
            if (!newKeys.has(JSON.stringify(mirror.key))) ctx.delete(mirror.key);
          }
          for (const mirror of newMirrors) ctx.set(mirror.key, mirror.value);
          for (const event of spec.events?.(old ? "update" : "create", record) ?? []) {
            ctx.emit(event);
          }
        }
        return change.reply;
      },
    },
  });
}

type CollectionActorDef<T extends Row> = ReturnType<typeof defineCollectionActor<T>>;

/** The view `name` of the records, built again only when they changed since (`derive`). */
function derived<T extends Row, V>(state: CollectionState<T>, name: string, build: (records: ReadonlyMap<number, T>) => V): V {
  const revision = state.revision ?? 0;
  const memo = state.derived?.get(name);
  if (memo && memo.revision === revision) return memo.value as V;
  const value = build(state.records);
  (state.derived ??= new Map()).set(name, { revision, value });
  return value;
}

/** Typed access to one collection in one scope. */
export class ScopedCollection<T extends Row> {
  constructor(
    readonly system: ActorSystem,
    readonly def: CollectionActorDef<T>,
    readonly scopeId: number,
  ) {}

  /** All records of the scope, in id order. */
  async list(): Promise<T[]> {
    const state = await this.#state();
    return [...state.records.values()].sort((a, b) => a.id - b.id);
  }

  /** The record, or undefined when it does not exist in this scope. */
  async get(id: number): Promise<T | undefined> {
    return (await this.#state()).records.get(id);
  }

  /**
   * The records map if the scope is live and loaded, else undefined (no turn of the loop).
   * Read straight from the system, without a ref: a live scope's kind is registered, and the
   * inbound path reads five of these per message (tickets/view.ts `lookupsNow`, webhooks).
   */
  recordsNow(): ReadonlyMap<number, T> | undefined {
    return (this.system.peekNow(this.def, String(this.scopeId)) as CollectionState<T> | undefined)?.records;
  }

  /** The records map itself (read only), for indexes that want no copy. */
  async records(): Promise<ReadonlyMap<number, T>> {
    return (await this.#state()).records;
  }

  /**
   * `build(records)`, built once and kept in the actor's state until the records change: a
   * view that hot paths read per message (a company's settings with their defaults) costs
   * a lookup, not a rebuild. The value is shared: callers must not change it.
   */
  async derive<V>(name: string, build: (records: ReadonlyMap<number, T>) => V): Promise<V> {
    return derived(await this.#state(), name, build);
  }

  /** `derive` without a turn of the loop: undefined when the scope is not live and loaded. */
  deriveNow<V>(name: string, build: (records: ReadonlyMap<number, T>) => V): V | undefined {
    const state = this.system.peekNow(this.def, String(this.scopeId)) as CollectionState<T> | undefined;
    return state ? derived(state, name, build) : undefined;
  }

  /** Runs a serialized read-check-write over the scope's records. */
  transact<R>(fn: (view: TxView<T>) => Change<T, R>): Promise<R> {
    return this.system.ref(this.def, this.scopeId).ask("transact", fn) as Promise<R>;
  }

  /** Creates a record from `build(id, now)`, after `check` passes on the current records. */
  create(
    build: (id: number, now: number) => T,
    check?: (records: ReadonlyMap<number, T>, next: T) => void,
  ): Promise<T> {
    return this.transact((view) => {
      const record = build(view.nextId(), view.now);
      check?.(view.records, record);
      return { put: [record], reply: record };
    });
  }

  /**
   * Replaces record `id` by `update(old, now)`; `missing` builds the error thrown when it
   * does not exist. `check` sees the current records and the new one.
   */
  update(
    id: number,
    update: (old: T, now: number) => T,
    missing: () => Error,
    check?: (records: ReadonlyMap<number, T>, next: T, old: T) => void,
  ): Promise<T> {
    return this.transact((view) => {
      const old = view.records.get(id);
      if (!old) throw missing();
      const next = { ...update(old, view.now), id };
      check?.(view.records, next, old);
      return { put: [next], reply: next };
    });
  }

  /** Deletes record `id`; throws `missing()` when it does not exist. Replies with the record. */
  remove(id: number, missing: () => Error): Promise<T> {
    return this.transact((view) => {
      const old = view.records.get(id);
      if (!old) throw missing();
      return { remove: [id], reply: old };
    });
  }

  #state(): Promise<CollectionState<T>> {
    return this.system.ref(this.def, this.scopeId).peek<CollectionState<T>>();
  }
}

/** A declared collection; `.in(system, scopeId)` addresses one scope of it. */
export class Collection<T extends Row> {
  readonly def: CollectionActorDef<T>;
  constructor(readonly spec: CollectionSpec<T>) {
    this.def = defineCollectionActor(spec);
  }

  in(system: ActorSystem, scopeId: number): ScopedCollection<T> {
    return new ScopedCollection(system, this.def, scopeId);
  }

  /** The actor definition, to register with the system at start-up. */
  get actor(): ActorDef<CollectionState<T>, CollectionActorDef<T>["handlers"]> {
    return this.def;
  }
}

/** Declares a collection. */
export function defineCollection<T extends Row>(spec: CollectionSpec<T>): Collection<T> {
  return new Collection(spec);
}
