/**
 * Large read models saved in KV as generations of chunks, so a start loads bytes instead of
 * rebuilding them (issue #23 §1 and §3): the message search index (actors/messages/
 * search_store.ts) and the snapshots of the ticket desk and the contacts (record_snapshot.ts).
 *
 * Keys under a `root` such as `["search_index", companyId]`:
 * - `[...root, "head"] → SavedHead`: which generation is complete, how many chunks of each kind
 *   it has, and what its owner needs to know about it (`meta`'s fields, spread in the head).
 *   Written last, in one atomic, after every chunk of its generation: a crash in the middle of
 *   a save leaves the previous head and its chunks untouched, and the next save of the same
 *   generation number deletes the orphaned chunks first.
 * - `[...root, "gen", gen, kind, n] → Uint8Array` (≤ 60 KB: KV's value limit is 64 KiB).
 */

/** Bytes per chunk (KV values are at most 64 KiB). */
export const CHUNK = 60_000;
/**
 * Chunks per atomic (KV takes at most 800 KB of mutations in one). KV writes one atomic at a
 * time, so every commit of the app waits behind a save's: ten chunks (600 KB) held it for
 * 8–36 ms, and a save of the message index during bench/ingest.ts's open loop at 10,000
 * messages/s held 700 messages of the next 100 ms over 50 ms (issue #34). Two chunks cost a
 * commit's fixed ~1 ms more often, in the background.
 */
const CHUNKS_PER_COMMIT = 2;
/** Deletes per atomic when old chunks and log entries are removed. */
const DELETES_PER_COMMIT = 500;
/** Chunks read per `getMany` (KV's limit), and such reads in flight at once. */
const GETS_PER_READ = 10;
const READS_IN_FLIGHT = 4;

/** Lets the event loop serve requests between steps; false when the work must stop. */
export type Yield = () => Promise<boolean>;

/** The record naming a complete generation: its format, number, chunk counts and the owner's fields. */
export type SavedHead<M> = M & {
  version: number;
  gen: number;
  chunks: Record<string, number>;
};

const headKey = (root: Deno.KvKey): Deno.KvKey => [...root, "head"];
const genPrefix = (root: Deno.KvKey, gen: number): Deno.KvKey => [...root, "gen", gen];

/** `bytes` cut into chunks of `CHUNK` (views, no copy). */
export function cut(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += CHUNK) out.push(bytes.subarray(at, Math.min(at + CHUNK, bytes.length)));
  return out;
}

/** The head under `root`, or null. */
export async function readHead<M>(kv: Deno.Kv, root: Deno.KvKey): Promise<SavedHead<M> | null> {
  return (await kv.get<SavedHead<M>>(headKey(root))).value;
}

/**
 * Saves `kinds` as generation `gen` under `root` and then its head (`meta()`'s fields spread in
 * it, asked once every chunk is written), then deletes the generation the previous head
 * named. A kind's chunks may come from an async iterable, so a big save never holds all of
 * them at once (a 10× desk is ~175 MB of chunks). Returns false when `pause` said to stop
 * (nothing half-visible is left). `beforeHead` runs after the chunks, before the head: it may
 * refuse the save (false).
 */
export async function saveChunks<M extends object>(
  kv: Deno.Kv,
  root: Deno.KvKey,
  version: number,
  gen: number,
  kinds: Record<string, Iterable<Uint8Array> | AsyncIterable<Uint8Array>>,
  meta: () => M,
  pause: Yield,
  beforeHead: () => Promise<boolean> = () => Promise.resolve(true),
): Promise<boolean> {
  const old = await readHead<M>(kv, root);
  if (!await deleteRange(kv, { prefix: genPrefix(root, gen) }, pause)) return false;
  const chunks: Record<string, number> = {};
  for (const [kind, list] of Object.entries(kinds)) {
    let count = 0;
    let op = kv.atomic();
    let held = 0;
    for await (const chunk of list) {
      op.set([...genPrefix(root, gen), kind, count++], chunk);
      if (++held < CHUNKS_PER_COMMIT) continue;
      await op.commit();
      if (!await pause()) return false;
      op = kv.atomic();
      held = 0;
    }
    if (held > 0) await op.commit();
    chunks[kind] = count;
  }
  if (!await beforeHead()) return false;
  const head = { ...meta(), version, gen, chunks } as SavedHead<M>;
  await kv.atomic().set(headKey(root), head).commit();
  if (old && old.gen !== gen) await deleteGen(kv, root, old, pause);
  return true;
}

/** The chunks of the head's generation, by kind in order; null when one is missing. */
export async function loadChunks<M>(
  kv: Deno.Kv,
  root: Deno.KvKey,
  head: SavedHead<M>,
  pause: Yield,
): Promise<Record<string, Uint8Array[]> | null> {
  const out: Record<string, Uint8Array[]> = {};
  for (const kind of Object.keys(head.chunks)) out[kind] = [];
  const complete = await eachChunk(kv, root, head, (kind, bytes) => void out[kind].push(bytes), pause);
  return complete ? out : null;
}

/**
 * Hands the head's chunks to `take` in order (kinds in the head's order), reading a few
 * batches ahead: false when one is missing or `pause` said to stop. Each chunk can be
 * dropped once taken: a 10× start held ~290 MB of chunks at once before decoding them, and
 * external memory of that size makes V8 collect early; reading one batch at a time left the
 * thread idle a third of the start.
 */
export async function eachChunk<M>(
  kv: Deno.Kv,
  root: Deno.KvKey,
  head: SavedHead<M>,
  take: (kind: string, bytes: Uint8Array) => void,
  pause: Yield,
): Promise<boolean> {
  const keys = genKeys(root, head);
  const read = (at: number) => kv.getMany<Uint8Array[]>(keys.slice(at, at + GETS_PER_READ));
  const ahead: Promise<Deno.KvEntryMaybe<Uint8Array>[]>[] = [];
  let next = 0;
  const fill = () => {
    while (ahead.length < READS_IN_FLIGHT && next < keys.length) {
      ahead.push(read(next));
      next += GETS_PER_READ;
    }
  };
  fill();
  while (ahead.length > 0) {
    const entries = await ahead.shift()!;
    fill();
    for (const entry of entries) {
      if (!(entry.value instanceof Uint8Array)) return false;
      take(entry.key[entry.key.length - 2] as string, entry.value);
    }
    if (!await pause()) {
      await Promise.allSettled(ahead);
      return false;
    }
  }
  return true;
}

/** Deletes the head under `root` (its chunks go at the next save of that generation). */
export async function forgetHead(kv: Deno.Kv, root: Deno.KvKey): Promise<void> {
  await kv.delete(headKey(root));
}

/** Deletes the keys of `selector`, a batch an atomic. */
export async function deleteRange(kv: Deno.Kv, selector: Deno.KvListSelector, pause: Yield): Promise<boolean> {
  for (;;) {
    const op = kv.atomic();
    let n = 0;
    for await (const entry of kv.list(selector, { limit: DELETES_PER_COMMIT })) {
      op.delete(entry.key);
      n++;
    }
    if (n === 0) return true;
    await op.commit();
    if (!await pause()) return false;
  }
}

/** Every chunk key of the head's generation, kinds in the head's order. */
function genKeys<M>(root: Deno.KvKey, head: SavedHead<M>): Deno.KvKey[] {
  const keys: Deno.KvKey[] = [];
  for (const [kind, count] of Object.entries(head.chunks)) {
    for (let n = 0; n < count; n++) keys.push([...genPrefix(root, head.gen), kind, n]);
  }
  return keys;
}

/** Deletes a generation's chunks by their keys (listing them would read every value). */
async function deleteGen<M>(kv: Deno.Kv, root: Deno.KvKey, head: SavedHead<M>, pause: Yield): Promise<boolean> {
  const keys = genKeys(root, head);
  for (let n = 0; n < keys.length; n += DELETES_PER_COMMIT) {
    const op = kv.atomic();
    for (const key of keys.slice(n, n + DELETES_PER_COMMIT)) op.delete(key);
    await op.commit();
    if (!await pause()) return false;
  }
  return true;
}
