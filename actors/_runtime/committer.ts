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
 *
 * Checks (issue #35): a unit may carry checks of its own (a shared actor's version, system.ts),
 * and a unit of a company this process holds by lease carries its company's fence (the lease
 * term's versionstamp, `Fence`), added once per company per batch. When KV refuses a batch for
 * a check, the fences are read again first: every unit of a company whose term moved is
 * rejected as fenced (the process lost the company) and the rest committed again; a unit whose
 * own check failed is isolated by halving and rejected as a conflict (`CheckFailed`). So one
 * lost lease never fails the other companies' writes in its batch.
 */
import { AppError } from "../../domain/errors.ts";
import { commitRefusal } from "./store_errors.ts";
import { log } from "./log.ts";

/** One write of a unit. */
export type Mutation =
  /** `expireIn` in ms, as KV's `set` takes it. */
  | { type: "set"; key: Deno.KvKey; value: unknown; expireIn?: number }
  | { type: "delete"; key: Deno.KvKey }
  /** Adds `value` to a `Deno.KvU64` counter (wrapping): commutes with other sums of the key. */
  | { type: "sum"; key: Deno.KvKey; value: bigint }
  | { type: "enqueue"; value: unknown; delay: number }
  /**
   * Entry `id → value` of the append-only log under `log` (`logId`: the prefix as text, the
   * writer's to give once). The entries a batch appends to one log are one KV value
   * (`#appendedKey`; appended_log.ts reads them back): a message's log entry costs its share of
   * one mutation, not a mutation of its own (issue #34).
   */
  | { type: "append"; log: Deno.KvKey; logId: string; id: string; value: unknown }
  /** The atomic commits only if `key`'s versionstamp is this (null: the key is absent). */
  | { type: "check"; key: Deno.KvKey; versionstamp: string | null };

/** KV limits (Deno 2.9): 1000 mutations and 800 KB per atomic, 64 KiB per value. */
export const KV_LIMITS = {
  mutationsPerAtomic: 1000,
  bytesPerAtomic: 800_000,
  bytesPerValue: 65_536,
  /** Enqueues per atomic are limited separately by KV; keep well below. */
  enqueuesPerAtomic: 100,
  /** Checks per atomic: 100 in a local store, 10 in a self-hosted KV Connect server. */
  checksPerAtomic: 10,
} as const;

/**
 * A company's fence: the lease term's key and the versionstamp this process holds it at. A
 * commit of the company's writes checks it, so a process that lost the lease writes nothing.
 */
export interface FenceCheck {
  key: Deno.KvKey;
  versionstamp: string;
}

/** Where the committer finds each company's fence (the cluster's leases); none: not fenced. */
export interface Fence {
  of(companyId: number): FenceCheck | undefined;
  /** Told when a commit found company `companyId`'s term moved: the process lost it. */
  lost(companyId: number): void;
}

/** A unit refused because a check of its own failed (a shared actor's stale version). */
export class CheckFailed extends Error {
  constructor() {
    super("A check of the write unit failed: what it read has changed");
  }
}

/** The refusal of a unit of a company whose lease this process no longer holds. */
export function fenced(companyId: number): AppError {
  return new AppError("ERR_COMPANY_MOVED", {
    status: 503,
    message: `Company ${companyId} is being moved to another process; try again shortly`,
    extra: { companyId },
  });
}

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
  /** Check mutations among `mutations`. */
  readonly checks: number;
  /** The company whose fence the unit's commit checks (set by the system; 0: none). */
  companyId?: number;
  /** Set when KV would refuse the unit on its own; `commit` then rejects it at once. */
  readonly error?: Error;
}

/**
 * Which of KV's per-atomic limits an atomic of these totals is over, as text; undefined when it
 * fits. `spare` mutations (each a check) are kept free: a unit leaves room for its fence.
 */
function overOneAtomic(mutations: number, bytes: number, enqueues: number, checks = 0, spare = 0): string | undefined {
  const maxMutations = KV_LIMITS.mutationsPerAtomic - spare;
  const maxChecks = KV_LIMITS.checksPerAtomic - spare;
  if (mutations > maxMutations) return `${mutations} mutations, over ${maxMutations}`;
  if (bytes > KV_LIMITS.bytesPerAtomic) return `${bytes} bytes, over ${KV_LIMITS.bytesPerAtomic}`;
  if (enqueues > KV_LIMITS.enqueuesPerAtomic) return `${enqueues} enqueues, over ${KV_LIMITS.enqueuesPerAtomic}`;
  if (checks > maxChecks) return `${checks} checks, over ${maxChecks}`;
  return undefined;
}

/** Whether an atomic of these totals is within KV's limits (the one check of them all). */
function fitsOneAtomic(mutations: number, bytes: number, enqueues: number, checks = 0): boolean {
  return overOneAtomic(mutations, bytes, enqueues, checks) === undefined;
}

/**
 * Called once a unit is durable (`error` undefined; `versionstamp` the atomic's, which every
 * key the unit wrote now has) or refused.
 */
export type Settled = (error?: unknown, versionstamp?: string) => void;

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
  /** This committer's part of its log values' keys (`#appendedKey`). */
  readonly #tag = crypto.randomUUID().slice(0, 8);
  readonly #now: () => number;
  #appendedAt = 0;
  #appendedCount = 0;

  /**
   * Called after each atomic KV accepted, with how long KV took (ms), the mutations KV wrote
   * (a key's sums counted once) and the write units batched into it: benchmarks read the
   * store's own commit latency through it (bench/ingest.ts), and the server's metrics the
   * latency and batch sizes (server/metrics). A port, so the kernel knows no metrics library;
   * it runs once per atomic (never per unit) and must not throw.
   */
  onCommit?: (ms: number, mutations: number, units: number) => void;

  /** The cluster's leases (issue #35); unset for a process alone. */
  fence?: Fence;

  /** `grouping: false` commits every unit on its own: the naive path, kept for the benchmark. */
  /** `now`: the system's clock, which log values' keys carry (`#appendedKey`). */
  constructor(kv: Deno.Kv, options: { grouping?: boolean; now?: () => number } = {}) {
    this.#kv = kv;
    this.#grouping = options.grouping ?? true;
    this.#now = options.now ?? Date.now;
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
    // A company this process does not hold (any more): refused without a round trip.
    if (this.fence && unit.companyId && !this.fence.of(unit.companyId)) return settled(fenced(unit.companyId));
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
      checks: first.checks + second.checks,
      companyId: first.companyId === second.companyId ? first.companyId : undefined,
    };
    // Linked units are one company's (a message and its ticket's note): one fence for both.
    const sameCompany = (first.companyId ?? 0) === (second.companyId ?? 0);
    const fits = fitsOneAtomic(merged.mutations.length, merged.bytes, merged.enqueues, merged.checks + 1);
    if (first.error || second.error || !sameCompany || !fits) {
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
    let checks = 0;
    let n = 0;
    let summed: Set<string> | undefined;
    let companies: Set<number> | undefined;
    for (const p of this.#queue) {
      let added = p.mutations.length;
      for (const id of p.sumIds) if (summed?.has(id)) added--;
      const fences = this.fence && p.companyId && !companies?.has(p.companyId) ? 1 : 0;
      const fits = fitsOneAtomic(count + added + fences, bytes + p.bytes, enqueues + p.enqueues, checks + p.checks + fences);
      if (!fits && n > 0) break;
      for (const id of p.sumIds) (summed ??= new Set()).add(id);
      if (fences) (companies ??= new Set()).add(p.companyId!);
      count += added + fences;
      bytes += p.bytes;
      enqueues += p.enqueues;
      checks += p.checks + fences;
      n++;
    }
    return this.#queue.splice(0, n);
  }

  async #commitBatch(batch: Pending[], locked = 0): Promise<void> {
    let refused: unknown;
    let versionstamp: string | undefined;
    try {
      const atomic = this.#kv.atomic();
      let count = 0;
      // One sum per key (see `#takeBatch`), one fence per company.
      let sums: Map<string, { key: Deno.KvKey; value: bigint }> | undefined;
      // Each log's entries, to be written as one value (or a few: see `#appendLogs`).
      let logs: Map<string, { log: Deno.KvKey; entries: unknown[] }> | undefined;
      let fenced: Set<number> | undefined;
      for (const p of batch) {
        let nextSum = 0;
        if (this.fence && p.companyId && !fenced?.has(p.companyId)) {
          (fenced ??= new Set()).add(p.companyId);
          const fence = this.fence.of(p.companyId);
          // Not held (any more): nothing of the company may be written.
          atomic.check(fence ?? { key: ["lease_term", p.companyId], versionstamp: "0".repeat(20) });
        }
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
          } else if (m.type === "check") {
            atomic.check({ key: m.key, versionstamp: m.versionstamp });
            continue;
          } else if (m.type === "append") {
            let appended = (logs ??= new Map()).get(m.logId);
            if (!appended) logs.set(m.logId, appended = { log: m.log, entries: [] });
            appended.entries.push(m.id, m.value);
            continue;
          } else atomic.enqueue(m.value, { delay: Math.max(0, Math.round(m.delay)) });
          count++;
        }
      }
      if (sums) for (const { key, value } of sums.values()) atomic.sum(key, BigInt.asUintN(64, value));
      if (logs) count += this.#appendLogs(atomic, logs);
      const started = this.onCommit ? performance.now() : 0;
      const result = await atomic.commit();
      if (!result.ok) throw new CheckFailed();
      versionstamp = result.versionstamp;
      this.onCommit?.(performance.now() - started, count, batch.length);
      this.#stats.commits++;
      this.#stats.units += batch.length;
      this.#stats.mutations += count;
    } catch (error) {
      if (error instanceof CheckFailed) return await this.#afterCheckFailed(batch);
      // Another process writing the same store file holds SQLite's lock: try again shortly.
      if (isLocked(error) && locked < LOCKED_RETRIES) {
        await new Promise((resolve) => setTimeout(resolve, 2 + Math.random() * 8 * (locked + 1)));
        return await this.#commitBatch(batch, locked + 1);
      }
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
    for (const p of batch) settle(p.settled, refused, versionstamp);
  }

  /**
   * Writes each log's entries of a batch (`append` mutations) as few values as KV's value
   * limit allows, each under a key of its own (`#appendedKey`); returns how many values.
   */
  #appendLogs(atomic: Deno.AtomicOperation, logs: Map<string, { log: Deno.KvKey; entries: unknown[] }>): number {
    let values = 0;
    for (const { log: prefix, entries } of logs.values()) {
      let from = 0;
      let bytes = 0;
      for (let n = 0; n < entries.length; n += 2) {
        bytes += approximateSize(entries[n]) + approximateSize(entries[n + 1]);
        if (bytes < APPENDED_BYTES && n + 2 < entries.length) continue;
        atomic.set(this.#appendedKey(prefix), entries.slice(from, n + 2));
        values++;
        from = n + 2;
        bytes = 0;
      }
    }
    return values;
  }

  /**
   * A new key under log `prefix`: the commit's time (13 digits, never behind the last one) and
   * this committer's tag and count, so values sort in the order they were written and never
   * collide, within a process or between processes. `~` sorts after every digit: a value
   * written at time t sorts after the message ids of t (keys.ts `messageLogFrom` reads from a
   * time on).
   */
  #appendedKey(prefix: Deno.KvKey): Deno.KvKey {
    const now = Math.max(Math.floor(this.#now()), this.#appendedAt);
    if (now !== this.#appendedAt) this.#appendedCount = 0;
    this.#appendedAt = now;
    const count = (this.#appendedCount++).toString(36).padStart(6, "0");
    return [...prefix, `${String(now).padStart(13, "0")}~${this.#tag}${count}`];
  }

  /**
   * KV refused `batch` for a check (see the module doc): units of companies whose fence moved
   * are rejected, the rest committed again; a lone unit is rejected as a conflict.
   */
  async #afterCheckFailed(batch: Pending[]): Promise<void> {
    const { lost, moved } = await this.#lostCompanies(batch);
    if (lost.size > 0) {
      for (const companyId of moved) this.fence?.lost(companyId);
      const kept = batch.filter((p) => !lost.has(p.companyId ?? 0));
      for (const p of batch) if (lost.has(p.companyId ?? 0)) settle(p.settled, fenced(p.companyId!));
      if (kept.length > 0) await this.#commitBatch(kept);
      return;
    }
    if (batch.length > 1) {
      const half = Math.ceil(batch.length / 2);
      await this.#commitBatch(batch.slice(0, half));
      await this.#commitBatch(batch.slice(half));
      return;
    }
    settle(batch[0].settled, new CheckFailed());
  }

  /**
   * The companies of `batch` whose fence no longer holds (`lost`), and among them those whose
   * term moved since this process took them (`moved`; the others it had already let go).
   */
  async #lostCompanies(batch: Pending[]): Promise<{ lost: Set<number>; moved: Set<number> }> {
    const lost = new Set<number>();
    const moved = new Set<number>();
    if (!this.fence) return { lost, moved };
    const held = new Map<number, FenceCheck>();
    for (const p of batch) {
      if (!p.companyId || held.has(p.companyId) || lost.has(p.companyId)) continue;
      const fence = this.fence.of(p.companyId);
      if (fence) held.set(p.companyId, fence);
      else lost.add(p.companyId);
    }
    const entries = [...held];
    for (let i = 0; i < entries.length; i += 10) {
      const slice = entries.slice(i, i + 10);
      const now = await this.#kv.getMany(slice.map(([, fence]) => fence.key));
      slice.forEach(([companyId, fence], k) => {
        if (now[k].versionstamp === fence.versionstamp) return;
        lost.add(companyId);
        moved.add(companyId);
      });
    }
    return { lost, moved };
  }
}

/** How often a batch is tried again while another process holds the store file's lock. */
const LOCKED_RETRIES = 50;

/** Whether `error` is SQLite's lock held by another writer of the same file. */
function isLocked(error: unknown): boolean {
  return error instanceof Error && /database is locked/i.test(error.message);
}

/** A key as text, types kept apart (1 and "1" differ). */
function keyId(key: Deno.KvKey): string {
  let id = "";
  for (const part of key) id += `${typeof part}:${part instanceof Uint8Array ? [...part].join(",") : String(part)}\u0001`;
  return id;
}

function settle(settled: Settled, error: unknown, versionstamp?: string): void {
  try {
    settled(error, versionstamp);
  } catch (thrown) {
    log.error("A commit's callback failed", { error: thrown });
  }
}

/** The `sumIds` of a unit with no sums, shared. */
const NO_SUMS: readonly string[] = Object.freeze([]);

/** Sizes a unit and says why it could never be committed, if so. */
function measure(mutations: Mutation[]): WriteUnit {
  let bytes = 0;
  let enqueues = 0;
  let checks = 0;
  let sumIds: string[] | undefined;
  for (const m of mutations) {
    const size = mutationSize(m);
    if (m.type !== "delete" && m.type !== "check" && size > KV_LIMITS.bytesPerValue) {
      const error = new Error(
        `Value of ${m.type} ${describeKey(m)} is ${size} bytes, over KV's 64 KiB`,
      );
      return { mutations, bytes, enqueues, checks, sumIds: sumIds ?? NO_SUMS, error };
    }
    bytes += size;
    if (m.type === "enqueue") enqueues++;
    else if (m.type === "sum") (sumIds ??= []).push(keyId(m.key));
    else if (m.type === "check") checks++;
  }
  // Room is kept for the check the commit adds: its company's fence.
  const over = overOneAtomic(mutations.length, bytes, enqueues, checks, 1);
  const ids = sumIds ?? NO_SUMS;
  return over
    ? { mutations, bytes, enqueues, checks, sumIds: ids, error: new Error(`Write unit has ${over} per atomic`) }
    : { mutations, bytes, enqueues, checks, sumIds: ids };
}

/**
 * Bytes of one log value (`#appendLogs`): a message's entry is ~40 B, so ~1,000 entries, under
 * KV's 64 KiB with room for approximateSize's error.
 */
const APPENDED_BYTES = 40_000;

/** Approximate encoded size of a mutation: enough to keep a batch inside KV's byte limit. */
function mutationSize(m: Mutation): number {
  if (m.type === "append") return keyBytes(m.log) + 32 + approximateSize(m.id) + approximateSize(m.value);
  const keySize = m.type === "enqueue" ? 0 : keyBytes(m.key);
  if (m.type === "delete" || m.type === "sum" || m.type === "check") return keySize + 8;
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
  if (m.type === "append") return JSON.stringify([...m.log, m.id], bigintSafe);
  return m.type === "enqueue" ? "(queue message)" : JSON.stringify(m.key, bigintSafe);
}
