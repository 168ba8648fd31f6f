/**
 * Group commit: the write units of many actors that become ready while one `kv.atomic()` is
 * in flight are written together in the next one, with those produced in the same instant by
 * the replies it released (see `#gather`). One commit is in flight at a time, so a batch
 * grows exactly as large as the load makes it: one writer commits alone (latency bound), many
 * writers share commits (throughput bound). Measured in `bench/kv_commit.ts`.
 *
 * A unit (one handler's writes) is never split across atomics. A batch that exceeds KV's
 * per-atomic limits is cut before it is sent; a batch that still fails is halved until the
 * failing unit is alone, and only that unit is rejected (a store that refuses every write, a
 * full disk, rejects each with a 503 error: store_errors.ts).
 */
import { commitRefusal } from "./store_errors.ts";

/** One write of a unit. */
export type Mutation =
  /** `expireIn` in ms, as KV's `set` takes it. */
  | { type: "set"; key: Deno.KvKey; value: unknown; expireIn?: number }
  | { type: "delete"; key: Deno.KvKey }
  /** Adds `value` to a `Deno.KvU64` counter (wrapping): commutes with other sums of the key. */
  | { type: "sum"; key: Deno.KvKey; value: bigint }
  | { type: "enqueue"; value: unknown; delay: number };

/** KV limits (Deno 2.9): 1000 mutations and 800 KB per atomic, 64 KiB per value. */
export const KV_LIMITS = {
  mutationsPerAtomic: 1000,
  bytesPerAtomic: 800_000,
  bytesPerValue: 65_536,
  /** Enqueues per atomic are limited separately by KV; keep well below. */
  enqueuesPerAtomic: 100,
} as const;

/** A unit measured once: what `commit` needs to batch it, or why KV would refuse it. */
export interface WriteUnit {
  readonly mutations: Mutation[];
  readonly bytes: number;
  readonly enqueues: number;
  /**
   * The key of each sum mutation, in order, as text (`keyId`): a batch writes one sum per key
   * (see `#takeBatch`), so only a key the batch has not summed yet counts against its limit.
   */
  readonly sumIds: readonly string[];
  /** Set when KV would refuse the unit on its own; `commit` then rejects it at once. */
  readonly error?: Error;
}

/** Whether an atomic of these totals is within KV's limits. */
function fitsOneAtomic(mutations: number, bytes: number, enqueues: number): boolean {
  return mutations <= KV_LIMITS.mutationsPerAtomic && bytes <= KV_LIMITS.bytesPerAtomic &&
    enqueues <= KV_LIMITS.enqueuesPerAtomic;
}

/** Called once a unit is durable (`error` undefined) or refused. */
export type Settled = (error?: unknown) => void;

interface Pending extends WriteUnit {
  settled: Settled;
}

/** Counters since construction: atomics committed, and the units and mutations in them. */
export interface CommitterStats {
  commits: number;
  units: number;
  mutations: number;
}

/** Batches write units into as few atomics as the limits allow; see the module doc. */
export class GroupCommitter {
  #kv: Deno.Kv;
  #queue: Pending[] = [];
  #running = false;
  #grouping: boolean;
  #stats: CommitterStats = { commits: 0, units: 0, mutations: 0 };

  /**
   * Called after each atomic KV accepted, with how long KV took (ms) and the mutations KV
   * wrote (a key's sums counted once): benchmarks read the store's own commit latency
   * through it (bench/ingest.ts).
   */
  onCommit?: (ms: number, mutations: number) => void;

  /** `grouping: false` commits every unit on its own: the naive path, kept for the benchmark. */
  constructor(kv: Deno.Kv, options: { grouping?: boolean } = {}) {
    this.#kv = kv;
    this.#grouping = options.grouping ?? true;
  }

  /** See CommitterStats. */
  get stats(): Readonly<CommitterStats> {
    return this.#stats;
  }

  /**
   * Measures a unit once and says, in `error`, why KV would refuse it on its own (a value over
   * 64 KiB, more mutations, bytes or enqueues than one atomic takes). The actor system checks
   * this before handling the next message, so a refused unit counts as a failed handler.
   */
  prepare(mutations: Mutation[]): WriteUnit {
    return measure(mutations);
  }

  /** Resolves once every mutation of the unit is durable in KV; rejects if it cannot be. */
  commit(unit: Mutation[] | WriteUnit): Promise<void> {
    const { promise, resolve, reject } = Promise.withResolvers<void>();
    this.commitThen(Array.isArray(unit) ? measure(unit) : unit, (error) => error === undefined ? resolve() : reject(error));
    return promise;
  }

  /**
   * `commit` with a callback instead of a promise: the actor system's path, which orders the
   * outputs of each actor itself and so needs no promise per unit. An empty unit (or one KV
   * would refuse) settles at once, before this returns. Units settle in the order they were
   * given: one atomic is in flight at a time and batches are taken from the queue's front.
   */
  commitThen(unit: WriteUnit, settled: Settled): void {
    if (unit.error) return settled(unit.error);
    if (unit.mutations.length === 0) return settled();
    this.#queue.push({ ...unit, settled });
    if (!this.#running) this.#drain();
  }

  /**
   * Commits two units in one atomic, in this order (actors' linked writes, commit_link.ts):
   * merged into one unit, which the batching never splits. Units too large to merge go one
   * after the other, still in order.
   */
  commitTogether(first: WriteUnit, firstSettled: Settled, second: WriteUnit, secondSettled: Settled): void {
    // Both were measured already: only the sums need checking against one atomic's limits.
    const merged: WriteUnit = {
      mutations: [...first.mutations, ...second.mutations],
      bytes: first.bytes + second.bytes,
      enqueues: first.enqueues + second.enqueues,
      sumIds: first.sumIds.length + second.sumIds.length === 0 ? NO_SUMS : [...first.sumIds, ...second.sumIds],
    };
    if (first.error || second.error || !fitsOneAtomic(merged.mutations.length, merged.bytes, merged.enqueues)) {
      this.commitThen(first, firstSettled);
      this.commitThen(second, secondSettled);
      return;
    }
    this.commitThen(merged, (error) => {
      firstSettled(error);
      secondSettled(error);
    });
  }

  async #drain(): Promise<void> {
    this.#running = true;
    try {
      while (this.#queue.length > 0) {
        await this.#gather();
        const batch = this.#takeBatch();
        await this.#commitBatch(batch);
      }
    } finally {
      this.#running = false;
    }
  }

  /**
   * Lets units that are being produced right now join the next batch. When a commit lands, its
   * replies release their askers, whose next messages are handled and committed within a few
   * microtask turns, with no I/O in between; taking the batch at once would send the units
   * queued during the flight and leave those to the following commit (two half batches per
   * round). So wait until the queue has not grown for a few turns (a bounded number of turns
   * of microseconds each, never a timer: a lone writer loses nothing).
   */
  async #gather(): Promise<void> {
    if (!this.#grouping) return;
    let seen = this.#queue.length;
    for (let turn = 0, quiet = 0; turn < 64 && quiet < 8; turn++) {
      await null;
      quiet = this.#queue.length === seen ? quiet + 1 : 0;
      seen = this.#queue.length;
    }
  }

  /**
   * Takes from the queue the longest prefix that fits one atomic. Sums of one key commute, so
   * a batch writes one sum per key (`#commitBatch`), and a unit's sum of a key the batch sums
   * already costs it nothing: the dashboard's counters take one sum per message, nearly all on
   * the same few keys, and counted each they cut a batch at 200 messages instead of 250
   * (issue #34).
   */
  #takeBatch(): Pending[] {
    if (!this.#grouping) return this.#queue.splice(0, 1);
    let count = 0;
    let bytes = 0;
    let enqueues = 0;
    let n = 0;
    let summed: Set<string> | undefined;
    for (const p of this.#queue) {
      let added = p.mutations.length;
      for (const id of p.sumIds) if (summed?.has(id)) added--;
      if (!fitsOneAtomic(count + added, bytes + p.bytes, enqueues + p.enqueues) && n > 0) break;
      for (const id of p.sumIds) (summed ??= new Set()).add(id);
      count += added;
      bytes += p.bytes;
      enqueues += p.enqueues;
      n++;
    }
    return this.#queue.splice(0, n);
  }

  async #commitBatch(batch: Pending[]): Promise<void> {
    let refused: unknown;
    try {
      const atomic = this.#kv.atomic();
      let count = 0;
      // One sum per key (see `#takeBatch`).
      let sums: Map<string, { key: Deno.KvKey; value: bigint }> | undefined;
      for (const p of batch) {
        let nextSum = 0;
        for (const m of p.mutations) {
          if (m.type === "set") atomic.set(m.key, m.value, m.expireIn === undefined ? undefined : { expireIn: m.expireIn });
          else if (m.type === "delete") atomic.delete(m.key);
          else if (m.type === "sum") {
            const id = p.sumIds[nextSum++];
            const seen = (sums ??= new Map()).get(id);
            if (seen) {
              seen.value += m.value;
              continue;
            }
            sums.set(id, { key: m.key, value: m.value });
          } else atomic.enqueue(m.value, { delay: Math.max(0, Math.round(m.delay)) });
          count++;
        }
      }
      if (sums) for (const { key, value } of sums.values()) atomic.sum(key, BigInt.asUintN(64, value));
      const started = this.onCommit ? performance.now() : 0;
      const result = await atomic.commit();
      // No checks are sent, so KV has no reason of the unit's to refuse it: the store's.
      if (!result.ok) throw new Error("KV atomic commit was refused");
      this.onCommit?.(performance.now() - started, count);
      this.#stats.commits++;
      this.#stats.units += batch.length;
      this.#stats.mutations += count;
    } catch (error) {
      if (batch.length > 1) {
        const half = Math.ceil(batch.length / 2);
        await this.#commitBatch(batch.slice(0, half));
        await this.#commitBatch(batch.slice(half));
        return;
      }
      // Alone and still refused: the unit's own fault (a KV limit) or the store's (a full
      // disk…), told apart in store_errors.ts so the client gets a 500 or a 503.
      refused = commitRefusal(error ?? new Error("KV atomic commit failed"));
    }
    // Outside the try: what a callback does (publish events, release replies) never counts as
    // a failed commit, which would write the batch again.
    for (const p of batch) settle(p.settled, refused);
  }
}

/** A key as text, types kept apart (1 and "1" differ). */
function keyId(key: Deno.KvKey): string {
  let id = "";
  for (const part of key) id += `${typeof part}:${part instanceof Uint8Array ? [...part].join(",") : String(part)}\u0001`;
  return id;
}

function settle(settled: Settled, error: unknown): void {
  try {
    settled(error);
  } catch (thrown) {
    console.error("A commit's callback failed", thrown);
  }
}

/** The `sumIds` of a unit with no sums, shared. */
const NO_SUMS: readonly string[] = Object.freeze([]);

/** Sizes a unit and says why it could never be committed, if so. */
function measure(mutations: Mutation[]): WriteUnit {
  let bytes = 0;
  let enqueues = 0;
  let sumIds: string[] | undefined;
  for (const m of mutations) {
    const size = mutationSize(m);
    if (m.type !== "delete" && size > KV_LIMITS.bytesPerValue) {
      const error = new Error(
        `Value of ${m.type} ${describeKey(m)} is ${size} bytes, over KV's 64 KiB`,
      );
      return { mutations, bytes, enqueues, sumIds: sumIds ?? NO_SUMS, error };
    }
    bytes += size;
    if (m.type === "enqueue") enqueues++;
    else if (m.type === "sum") (sumIds ??= []).push(keyId(m.key));
  }
  const over = mutations.length > KV_LIMITS.mutationsPerAtomic
    ? `${mutations.length} mutations, over ${KV_LIMITS.mutationsPerAtomic}`
    : bytes > KV_LIMITS.bytesPerAtomic
    ? `${bytes} bytes, over ${KV_LIMITS.bytesPerAtomic}`
    : enqueues > KV_LIMITS.enqueuesPerAtomic
    ? `${enqueues} enqueues, over ${KV_LIMITS.enqueuesPerAtomic}`
    : undefined;
  const ids = sumIds ?? NO_SUMS;
  return over
    ? { mutations, bytes, enqueues, sumIds: ids, error: new Error(`Write unit has ${over} per atomic`) }
    : { mutations, bytes, enqueues, sumIds: ids };
}

/** Approximate encoded size of a mutation: enough to keep a batch inside KV's byte limit. */
function mutationSize(m: Mutation): number {
  const keySize = m.type === "enqueue" ? 0 : keyBytes(m.key);
  if (m.type === "delete" || m.type === "sum") return keySize + 8;
  return keySize + approximateSize(m.value);
}

function keyBytes(key: Deno.KvKey): number {
  let bytes = 2;
  for (const part of key) {
    if (typeof part === "string") bytes += part.length + 2;
    else if (part instanceof Uint8Array) bytes += part.byteLength + 2;
    else bytes += 10;
  }
  return bytes;
}

/** Deeper than this, a value is counted as the byte limit: no record nests so deep. */
const MAX_DEPTH = 32;

/**
 * Approximate serialised size of a value, by walking it: strings count their length, numbers
 * and dates 9 bytes, binary its bytes, keys their length. Close enough to keep a batch inside
 * KV's byte limit (a batch KV still refuses is halved; see `#commitBatch`), and it allocates
 * nothing: the `JSON.stringify` it replaced built a string per value, ~4% of the inbound
 * path's CPU at 8,000 messages/s (bench/ingest.ts).
 */
function approximateSize(value: unknown, depth = 0): number {
  switch (typeof value) {
    case "string":
      return value.length + 5;
    case "number":
      return 9;
    case "bigint":
      return 9 + Math.ceil(value.toString(16).length / 2);
    case "object":
      break;
    default:
      return 1; // boolean, undefined
  }
  if (value === null) return 1;
  if (depth > MAX_DEPTH) return KV_LIMITS.bytesPerValue;
  if (ArrayBuffer.isView(value)) return value.byteLength + 8;
  if (value instanceof ArrayBuffer) return value.byteLength + 8;
  if (value instanceof Date) return 9;
  let bytes = 5;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) bytes += approximateSize(value[i], depth + 1);
    return bytes;
  }
  if (value instanceof Map) {
    for (const [k, v] of value) bytes += approximateSize(k, depth + 1) + approximateSize(v, depth + 1);
    return bytes;
  }
  if (value instanceof Set) {
    for (const v of value) bytes += approximateSize(v, depth + 1);
    return bytes;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) bytes += key.length + 3 + approximateSize(record[key], depth + 1);
  return bytes;
}

function bigintSafe(_key: string, value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Uint8Array) return `bytes:${value.byteLength}`;
  return value;
}

function describeKey(m: Mutation): string {
  return m.type === "enqueue" ? "(queue message)" : JSON.stringify(m.key, bigintSafe);
}
