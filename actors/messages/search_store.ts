/**
 * The message search index kept in KV (issue #23 §1), so a start loads it instead of
 * rebuilding it: a rebuild reads and decodes every message of the company on the event
 * loop (20–50 s at 1M messages, and so minutes at 10M), and searches meanwhile wait for its
 * slices at every step (p99 of the first 10 s 0.26–0.73 s with the machine at load 4–5,
 * 59–101 ms on a quiet one). A load reads the packed lists (≈ 4 bytes a pair, 16 MB in 277
 * chunks at 1M messages) and the messages logged since they were saved: 0.3–1.2 s.
 *
 * Keys:
 * - `["search_index", companyId, "head"] → SavedHead`: which generation is complete and what
 *   it covers. Written last, in one atomic, after every chunk of its generation: a crash in
 *   the middle of a save leaves the previous head and its chunks untouched, and the next save
 *   deletes the orphaned chunks.
 * - `["search_index", companyId, "gen", gen, kind, n] → Uint8Array` (≤ 60 KB, KV's value limit
 *   is 64 KiB): `w` the vocabulary (whole words per chunk, `\n`-separated, in slot order),
 *   `s` the list starts and `i` the ticket ids (FrozenPostings' arrays, the platform's byte
 *   order).
 * - `["search_log", companyId, at, messageId] → null` (keys.ts `searchLogKey`): written by the
 *   messages actor in the same atomic as a new message or an edit, so every committed text is
 *   in the log; a load indexes the messages of the entries from the saved head's
 *   `coversBefore` on. Entries below a saved head's `coversBefore` are deleted after the save.
 *
 * What a saved generation covers: every message whose log entry is older than `coversBefore`
 * — the start of the build or freeze that produced it, less `LOG_MARGIN_MS`, which allows
 * for the time between an entry's stamp (the actor's clock before its commit) and the live
 * event that put its words into the index. Replaying from there may index a message twice,
 * which changes nothing.
 *
 * Writers around the log (the benchmarks' and tests' seeders write messages straight into
 * KV) would leave a saved index silently incomplete. A head therefore records the newest
 * message key of the company when it was saved; a load that finds a newer one that the log
 * does not name gives up and the company is rebuilt. That catches seeders of new tickets
 * (all of ours), not one that writes into old tickets: such a writer must delete the saved
 * head (`forgetSavedIndex`).
 */
import { FrozenPostings } from "./postings.ts";
import { companyMessagesPrefix, searchLogPrefix } from "./keys.ts";

/** Format of the saved chunks; a head of another version is ignored (rebuilt). */
const VERSION = 1;
/** Bytes per chunk (KV values are at most 64 KiB). */
const CHUNK = 60_000;
/** Chunks per atomic (KV takes at most 800 KB of mutations in one). */
const CHUNKS_PER_COMMIT = 10;
/** Deletes per atomic when old chunks and log entries are removed. */
const DELETES_PER_COMMIT = 500;
/** See the module doc. */
export const LOG_MARGIN_MS = 60_000;

/** The record naming the complete generation. */
interface SavedHead {
  version: number;
  gen: number;
  words: number;
  ids: number;
  chunks: { w: number; s: number; i: number };
  coversBefore: number;
  /** The newest key's message id under the company's messages when saved (null: none). */
  newest: string | null;
}

function headKey(companyId: number): Deno.KvKey {
  return ["search_index", companyId, "head"];
}

function genPrefix(companyId: number, gen?: number): Deno.KvKey {
  return gen === undefined ? ["search_index", companyId, "gen"] : ["search_index", companyId, "gen", gen];
}

/** Lets the event loop serve requests (search_index.ts `rest`); false when the work must stop. */
export type Yield = () => Promise<boolean>;

/** The id of the company's message with the highest key, or null. */
export async function newestMessageId(kv: Deno.Kv, companyId: number): Promise<string | null> {
  for await (const entry of kv.list({ prefix: companyMessagesPrefix(companyId) }, { reverse: true, limit: 1 })) {
    return String(entry.key[3]);
  }
  return null;
}

/** `bytes` cut into chunks of `CHUNK` (views, no copy). */
function cut(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += CHUNK) out.push(bytes.subarray(at, Math.min(at + CHUNK, bytes.length)));
  return out;
}

/** The vocabulary in slot order, whole words per chunk (so each chunk decodes alone). */
function wordChunks(frozen: FrozenPostings): Uint8Array[] {
  const words: string[] = new Array(frozen.slots.size);
  for (const [word, slot] of frozen.slots) words[slot] = word;
  const encoder = new TextEncoder();
  const out: Uint8Array[] = [];
  let batch: string[] = [];
  let size = 0;
  for (const word of words) {
    // A UTF-16 unit is at most 3 UTF-8 bytes: the estimate never overflows a chunk.
    if (size + word.length * 3 + 1 > CHUNK) {
      out.push(encoder.encode(batch.join("\n")));
      batch = [];
      size = 0;
    }
    batch.push(word);
    size += word.length * 3 + 1;
  }
  if (batch.length > 0) out.push(encoder.encode(batch.join("\n")));
  return out;
}

const bytesOf = (array: Uint32Array) => new Uint8Array(array.buffer, array.byteOffset, array.byteLength);

/**
 * Saves `frozen` as the company's index covering log entries before `coversBefore`, then
 * deletes the older generation and the log entries it no longer needs. Returns false when
 * `pause` said to stop (nothing half-visible is left: the head is written last).
 */
export async function saveIndex(
  kv: Deno.Kv,
  companyId: number,
  frozen: FrozenPostings,
  coversBefore: number,
  pause: Yield,
): Promise<boolean> {
  const old = (await kv.get<SavedHead>(headKey(companyId))).value;
  const gen = (old?.gen ?? 0) + 1;
  // Orphans of a save that stopped half-way (a crash) carry this number (none, normally).
  if (!await deleteRange(kv, { prefix: genPrefix(companyId, gen) }, pause)) return false;
  const newest = await newestMessageId(kv, companyId);
  const kinds: Array<["w" | "s" | "i", Uint8Array[]]> = [
    ["w", wordChunks(frozen)],
    ["s", cut(bytesOf(frozen.starts))],
    ["i", cut(bytesOf(frozen.ids))],
  ];
  for (const [kind, chunks] of kinds) {
    for (let n = 0; n < chunks.length; n += CHUNKS_PER_COMMIT) {
      const op = kv.atomic();
      for (let k = n; k < Math.min(n + CHUNKS_PER_COMMIT, chunks.length); k++) {
        op.set([...genPrefix(companyId, gen), kind, k], chunks[k]);
      }
      await op.commit();
      if (!await pause()) return false;
    }
  }
  const head: SavedHead = {
    version: VERSION,
    gen,
    words: frozen.slots.size,
    ids: frozen.ids.length,
    chunks: { w: kinds[0][1].length, s: kinds[1][1].length, i: kinds[2][1].length },
    coversBefore,
    newest,
  };
  await kv.atomic().set(headKey(companyId), head).commit();
  if (old && !await deleteGen(kv, companyId, old, pause)) return true;
  if (Number.isFinite(coversBefore)) {
    await deleteRange(kv, { start: searchLogPrefix(companyId), end: [...searchLogPrefix(companyId), coversBefore] }, pause);
  }
  return true;
}

/** Deletes the keys of `selector`, a batch an atomic. */
async function deleteRange(kv: Deno.Kv, selector: Deno.KvListSelector, pause: Yield): Promise<boolean> {
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

/** Deletes a generation's chunks by their keys (listing them would read every value). */
async function deleteGen(kv: Deno.Kv, companyId: number, head: SavedHead, pause: Yield): Promise<boolean> {
  const keys: Deno.KvKey[] = [];
  for (const kind of ["w", "s", "i"] as const) {
    for (let n = 0; n < head.chunks[kind]; n++) keys.push([...genPrefix(companyId, head.gen), kind, n]);
  }
  for (let n = 0; n < keys.length; n += DELETES_PER_COMMIT) {
    const op = kv.atomic();
    for (const key of keys.slice(n, n + DELETES_PER_COMMIT)) op.delete(key);
    await op.commit();
    if (!await pause()) return false;
  }
  return true;
}

/** A saved index read back. */
export interface LoadedIndex {
  frozen: FrozenPostings;
  coversBefore: number;
  newest: string | null;
}

/** The company's saved index, or null (none, another format, or chunks missing). */
export async function loadIndex(kv: Deno.Kv, companyId: number, pause: Yield): Promise<LoadedIndex | null> {
  const head = (await kv.get<SavedHead>(headKey(companyId))).value;
  if (!head || head.version !== VERSION) return null;
  const starts = new Uint32Array(head.words + 1);
  const ids = new Uint32Array(head.ids);
  const slots = new Map<string, number>();
  const filled = { s: 0, i: 0 };
  const decoder = new TextDecoder();
  const keys: Deno.KvKey[] = [];
  for (const kind of ["w", "s", "i"] as const) {
    for (let n = 0; n < head.chunks[kind]; n++) keys.push([...genPrefix(companyId, head.gen), kind, n]);
  }
  for (let n = 0; n < keys.length; n += 10) {
    for (const entry of await kv.getMany<Uint8Array[]>(keys.slice(n, n + 10))) {
      const kind = entry.key[4] as "w" | "s" | "i";
      const bytes = entry.value;
      if (!(bytes instanceof Uint8Array)) return null;
      if (kind === "w") {
        for (const word of decoder.decode(bytes).split("\n")) slots.set(word, slots.size);
      } else {
        const target = kind === "s" ? bytesOf(starts) : bytesOf(ids);
        if (filled[kind] + bytes.length > target.length) return null;
        target.set(bytes, filled[kind]);
        filled[kind] += bytes.length;
      }
    }
    if (!await pause()) return null;
  }
  const complete = slots.size === head.words && filled.s === starts.byteLength && filled.i === ids.byteLength;
  if (!complete) return null;
  return { frozen: new FrozenPostings(slots, starts, ids), coversBefore: head.coversBefore, newest: head.newest };
}

/** The message ids of the company's log entries stamped at `from` or later, in pages. */
export async function* loggedSince(kv: Deno.Kv, companyId: number, from: number): AsyncGenerator<string[]> {
  const prefix = searchLogPrefix(companyId);
  let page: string[] = [];
  for await (const entry of kv.list({ prefix, start: [...prefix, from] }, { batchSize: 500 })) {
    page.push(String(entry.key[3]));
    if (page.length === 500) {
      yield page;
      page = [];
    }
  }
  if (page.length > 0) yield page;
}

/** Deletes the company's saved index (a writer around the log must; see the module doc). */
export async function forgetSavedIndex(kv: Deno.Kv, companyId: number): Promise<void> {
  await kv.delete(headKey(companyId));
}
