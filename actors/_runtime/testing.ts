/**
 * Test kit for the actor kernel: a system on a fresh KV that is always closed, a KV wrapper
 * that records every atomic and can hold commits back, one that refuses writes, and bounded
 * waiting.
 */
import { ActorSystem, type ActorSystemOptions } from "./system.ts";

/** A KV handle whose atomics are recorded and whose commits can be held back. */
export interface ProbedKv {
  readonly kv: Deno.Kv;
  /** Mutation count of every atomic committed so far, in commit order. */
  readonly atomics: number[];
  /** The keys each of those atomics set, as JSON (to see which writes landed together). */
  readonly setKeys: Set<string>[];
  /** Makes every commit from now on wait until `release()`. */
  hold(): void;
  release(): void;
}

/** Wraps `inner` so a test can see each atomic and delay commits (to widen race windows). */
export function probeKv(inner: Deno.Kv): ProbedKv {
  const atomics: number[] = [];
  const setKeys: Set<string>[] = [];
  let gate: PromiseWithResolvers<void> | undefined;
  const wrapAtomic = () => {
    const op = inner.atomic();
    let count = 0;
    const keys = new Set<string>();
    const counted = new Proxy(op, {
      get(target, prop) {
        if (prop === "commit") {
          return async () => {
            if (gate) await gate.promise;
            const result = await target.commit();
            if (result.ok) {
              atomics.push(count);
              setKeys.push(keys);
            }
            return result;
          };
        }
        const value = Reflect.get(target, prop, target);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          if (prop === "set" || prop === "delete" || prop === "enqueue") count++;
          if (prop === "set") keys.add(JSON.stringify(args[0]));
          value.apply(target, args);
          return counted;
        };
      },
    });
    return counted;
  };
  const kv = new Proxy(inner, {
    get(target, prop) {
      if (prop === "atomic") return wrapAtomic;
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return {
    kv,
    atomics,
    setKeys,
    hold: () => gate ??= Promise.withResolvers<void>(),
    release: () => {
      gate?.resolve();
      gate = undefined;
    },
  };
}

/** A KV handle whose writes can be made to fail as a full disk's do; reads always work. */
export interface RefusingKv {
  readonly kv: Deno.Kv;
  /** From now on every write (atomic commit, set, delete, enqueue) throws, until `accept()`. */
  refuse(): void;
  accept(): void;
  /** Writes refused so far. */
  readonly refused: number;
}

/** KV's own error for a full disk (seen on a 2 MB tmpfs), so the fake fails as the real one. */
const FULL_DISK = "database or disk is full (refused by the test's store)";

/**
 * Wraps `inner` so a test can make the store refuse writes (issue #24 faults): the server is
 * started on it through Config.wrapKv, and the API must answer 503 and recover.
 */
export function refusingKv(inner: Deno.Kv): RefusingKv {
  let refusing = false;
  let refused = 0;
  const fail = () => {
    refused++;
    return Promise.reject(new TypeError(FULL_DISK));
  };
  const wrapAtomic = () => {
    const op = inner.atomic();
    const wrapped: Deno.AtomicOperation = new Proxy(op, {
      get(target, prop) {
        if (prop === "commit") return () => refusing ? fail() : target.commit();
        const value = Reflect.get(target, prop, target);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          value.apply(target, args);
          return wrapped;
        };
      },
    });
    return wrapped;
  };
  const writes = new Set<PropertyKey>(["set", "delete", "enqueue"]);
  const kv = new Proxy(inner, {
    get(target, prop) {
      if (prop === "atomic") return wrapAtomic;
      const value = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      if (writes.has(prop)) return (...args: unknown[]) => refusing ? fail() : value.apply(target, args);
      return value.bind(target);
    },
  });
  return {
    kv,
    refuse: () => void (refusing = true),
    accept: () => void (refusing = false),
    get refused() {
      return refused;
    },
  };
}

/** What `withSystem` hands the test. */
export interface SystemFixture {
  system: ActorSystem;
  /** The KV the system writes through (probed). */
  probe: ProbedKv;
  /** The underlying KV, for direct reads and enqueues. */
  kv: Deno.Kv;
}

/** Runs `fn` with a system on a fresh in-memory (or given) KV, then closes both. */
export async function withSystem(
  fn: (fixture: SystemFixture) => Promise<void>,
  options: ActorSystemOptions & { path?: string } = {},
): Promise<void> {
  const kv = await Deno.openKv(options.path ?? ":memory:");
  const probe = probeKv(kv);
  const system = new ActorSystem(probe.kv, options);
  try {
    await fn({ system, probe, kv });
  } finally {
    probe.release();
    await system.close();
    kv.close();
    await system.listening.catch(() => {});
  }
}

/** Polls `condition` every 10 ms until it holds; throws after `timeoutMs`. */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) {
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Lets pending promise callbacks and I/O completions run (one macrotask turn, a few times). */
export async function settle(turns = 5): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32), so a failing test reproduces. */
export function seededRandom(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
