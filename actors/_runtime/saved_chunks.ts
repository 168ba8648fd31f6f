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
/** Chunks per atomic (KV takes at most 800 KB of mutations in one). */
const CHUNKS_PER_COMMIT = 10;
/** Deletes per atomic when old chunks and log entries are removed. */
const DELETES_PER_COMMIT = 500;
/** Chunks read per `getMany` (KV's limit). */
const GETS_PER_READ = 10;

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
 * Saves `kinds` as generation `gen` under `root` and then its head (`meta` spread in it), then
 * deletes the generation the previous head named. Returns false when `pause` said to stop
 * (nothing half-visible is left). `beforeHead` runs after the chunks, before the head: it may
 * refuse the save (false), e.g. when what was captured turned out not to be committed.
 */
export async function saveChunks<M extends object>(
  kv: Deno.Kv,
  root: Deno.KvKey,
  version: number,
  gen: number,
  kinds: Record<string, Uint8Array[]>,
  meta: M,
  pause: Yield,
  beforeHead: () => Promise<boolean> = () => Promise.resolve(true),
): Promise<boolean> {
  const old = await readHead<M>(kv, root);
  if (!await deleteRange(kv, { prefix: genPrefix(root, gen) }, pause)) return false;
  const chunks: Record<string, number> = {};
  for (const [kind, list] of Object.entries(kinds)) {
    chunks[kind] = list.length;
    for (let n = 0; n < list.length; n += CHUNKS_PER_COMMIT) {
      const op = kv.atomic();
      for (let k = n; k < Math.min(n + CHUNKS_PER_COMMIT, list.length); k++) {
        op.set([...genPrefix(root, gen), kind, k], list[k]);
      }
      await op.commit();
      if (!await pause()) return false;
    }
  }
  if (!await beforeHead()) return false;
  const head = { ...meta, version, gen, chunks } as SavedHead<M>;
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
  const keys = genKeys(root, head);
  const out: Record<string, Uint8Array[]> = {};
  for (const kind of Object.keys(head.chunks)) out[kind] = [];
  for (let n = 0; n < keys.length; n += GETS_PER_READ) {
    for (const entry of await kv.getMany<Uint8Array[]>(keys.slice(n, n + GETS_PER_READ))) {
      if (!(entry.value instanceof Uint8Array)) return null;
      out[entry.key[entry.key.length - 2] as string].push(entry.value);
    }
    if (!await pause()) return null;
  }
  return out;
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
