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
 * - the message log, `["provider_log", companyId, messageId] → providerId | null` (keys.ts
 *   `messageLogKey`), and the search log, `["search_log", companyId, at, messageId] → null`
 *   (`searchLogKey`): the messages actor writes the first in the same atomic as a new message
 *   and the second with an edit of a text, so every committed text is in one or the other; a
 *   load indexes the messages of the entries from the saved head's `coversBefore` on (a
 *   message id begins with the actor's clock, so the message log's entries since a time are
 *   one range). Search log entries below a saved head's `coversBefore` are deleted after the
 *   save; the message log stays, the provider index's record.
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
import { companyMessagesPrefix, messageLogFrom, messageLogPrefix, searchLogPrefix } from "./keys.ts";
import { appendedEntries } from "../_runtime/appended_log.ts";
import { CHUNK, cut, deleteRange, forgetHead, loadChunks, readHead, saveChunks, type Yield } from "../_runtime/saved_chunks.ts";

export type { Yield };

/**
 * Format of the saved chunks; a head of another version is ignored (rebuilt). 2: words that
 * start with a digit are listed as `#` and the word (search_index.ts `indexKey`).
 */
const VERSION = 2;
/** See the module doc. */
export const LOG_MARGIN_MS = 60_000;

/** What the head says besides its generation and chunk counts (saved_chunks.ts). */
interface IndexMeta {
  words: number;
  ids: number;
  coversBefore: number;
  /** The newest key's message id under the company's messages when saved (null: none). */
  newest: string | null;
}

const root = (companyId: number): Deno.KvKey => ["search_index", companyId];

/** The id of the company's message with the highest key, or null. */
export async function newestMessageId(kv: Deno.Kv, companyId: number): Promise<string | null> {
  for await (const entry of kv.list({ prefix: companyMessagesPrefix(companyId) }, { reverse: true, limit: 1 })) {
    return String(entry.key[3]);
  }
  return null;
}

/**
 * The vocabulary in slot order, whole words per chunk (so each chunk decodes alone), made as
 * the save takes them: the save pauses between its commits, so joining and encoding happen a
 * few chunks at a time rather than all before the first write.
 */
function* wordChunks(frozen: FrozenPostings): Generator<Uint8Array> {
  const words: string[] = new Array(frozen.words);
  for (const [word, slot] of frozen.wordSlots()) words[slot] = word;
  const encoder = new TextEncoder();
  let batch: string[] = [];
  let size = 0;
  for (const word of words) {
    // A UTF-16 unit is at most 3 UTF-8 bytes: the estimate never overflows a chunk.
    if (size + word.length * 3 + 1 > CHUNK) {
      yield encoder.encode(batch.join("\n"));
      batch = [];
      size = 0;
    }
    batch.push(word);
    size += word.length * 3 + 1;
  }
  if (batch.length > 0) yield encoder.encode(batch.join("\n"));
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
  const old = await readHead<IndexMeta>(kv, root(companyId));
  const newest = await newestMessageId(kv, companyId);
  const kinds = { w: wordChunks(frozen), s: cut(bytesOf(frozen.starts)), i: cut(bytesOf(frozen.ids)) };
  const meta: IndexMeta = { words: frozen.words, ids: frozen.ids.length, coversBefore, newest };
  if (!await saveChunks(kv, root(companyId), VERSION, (old?.gen ?? 0) + 1, kinds, () => meta, pause)) return false;
  if (Number.isFinite(coversBefore)) {
    await deleteRange(kv, { start: searchLogPrefix(companyId), end: [...searchLogPrefix(companyId), coversBefore] }, pause);
  }
  return true;
}

/** A saved index read back. */
export interface LoadedIndex {
  frozen: FrozenPostings;
  coversBefore: number;
  newest: string | null;
}

/** Chunks copied between two yields of a load (~4 MB). */
const COPY_SLICE_CHUNKS = 64;

/** The company's saved index, or null (none, another format, or chunks missing). */
export async function loadIndex(kv: Deno.Kv, companyId: number, pause: Yield): Promise<LoadedIndex | null> {
  const head = await readHead<IndexMeta>(kv, root(companyId));
  if (!head || head.version !== VERSION) return null;
  const chunks = await loadChunks(kv, root(companyId), head, pause);
  if (!chunks) return null;
  const starts = new Uint32Array(head.words + 1);
  const ids = new Uint32Array(head.ids);
  const slots = new Map<string, number>();
  const decoder = new TextDecoder();
  for (const bytes of chunks.w) {
    for (const word of decoder.decode(bytes).split("\n")) slots.set(word, slots.size);
  }
  const filled = { s: 0, i: 0 };
  for (const kind of ["s", "i"] as const) {
    const target = kind === "s" ? bytesOf(starts) : bytesOf(ids);
    for (const [n, bytes] of chunks[kind].entries()) {
      if (filled[kind] + bytes.length > target.length) return null;
      target.set(bytes, filled[kind]);
      filled[kind] += bytes.length;
      // The copy of a ten-times index (10M messages) into fresh memory held the loop 180 ms
      // in one piece: searches and lists go on between slices of it.
      if (n % COPY_SLICE_CHUNKS === COPY_SLICE_CHUNKS - 1 && !await pause()) return null;
    }
  }
  const complete = slots.size === head.words && filled.s === starts.byteLength && filled.i === ids.byteLength;
  if (!complete) return null;
  return { frozen: new FrozenPostings(slots, starts, ids), coversBefore: head.coversBefore, newest: head.newest };
}

/**
 * The message ids of the company's message log and search log entries stamped at `from` or
 * later, in pages (an id may come twice: from both logs, in a store older than issue #34).
 */
export async function* loggedSince(kv: Deno.Kv, companyId: number, from: number): AsyncGenerator<string[]> {
  const searchLog = searchLogPrefix(companyId);
  const ranges = [
    // A commit's entries are one value of up to ~40 KB (appended_log.ts), keyed by its time.
    { selector: { prefix: messageLogPrefix(companyId), start: messageLogFrom(companyId, from) }, idAt: 2, batchSize: 100 },
    { selector: { prefix: searchLog, start: [...searchLog, from] }, idAt: 3, batchSize: 500 },
  ];
  let page: string[] = [];
  for (const { selector, idAt, batchSize } of ranges) {
    for await (const entry of kv.list(selector, { batchSize })) {
      for (const [id] of appendedEntries(entry, idAt)) page.push(id);
      if (page.length >= 500) {
        yield page;
        page = [];
      }
    }
  }
  if (page.length > 0) yield page;
}

/** Deletes the company's saved index (a writer around the log must; see the module doc). */
export async function forgetSavedIndex(kv: Deno.Kv, companyId: number): Promise<void> {
  await forgetHead(kv, root(companyId));
}
