/**
 * Snapshots of an actor's records (issue #23 §3: a start of 1,000,000 tickets and 500,000
 * contacts took ~31 s, two thirds of it KV listing and decoding one record at a time). The
 * ticket desk and the contacts actor keep every record of a company in memory; a snapshot is
 * those records packed (msgpackr records, ~175 B a ticket) into the chunks of saved_chunks.ts,
 * so a start reads a few thousand values instead of a million.
 *
 * Keys, for an area `name` ("ticket", "contact"):
 * - `[name + "_snapshot", companyId, ...]`: the chunks and head (saved_chunks.ts); the head
 *   names the generation, the record count and the highest id saved (`maxId`).
 * - `[name + "_mark", companyId, gen, "<time>~…"] → [id, null, id, null, …]`: the records a
 *   commit changed after generation `gen` was captured, one value per commit (the committer's
 *   `append`, appended_log.ts). Written by the actor in the same atomic as the change, from
 *   the first capture on (a company that never had a snapshot writes none), and once per record
 *   and generation: a record whose mark is already durable is not marked again (`markDurable`).
 *   A mark was a key of its own before, `[…, gen, at, id]` and earlier `[…, gen, id]`: keyed
 *   by id alone, the marks of changes to scattered records each landed on a page of their own,
 *   and a batch of accepts' commit took ~29 % longer with them, ~9 % keyed by time (a KV
 *   experiment with 100,000 tickets, 14 accepts a commit); one value per commit is one row. A
 *   load reads all three shapes.
 * - `[name + "_snapshot", companyId, "marking"] → true`: marks are kept (written with the
 *   first capture, so a state reloaded while that first save runs goes on marking).
 *
 * Generations: a snapshot saved as generation `g` holds the records as they were at its
 * capture; changes after the capture carry marks of `g`, and a state loaded with head `g` marks
 * with `g + 1` (so a save of `g + 1` that was running when the state was reset, and deletes the
 * marks below `g + 1` when done, cannot delete them). A load re-reads from KV every record
 * marked `g` or later and every record above the head's `maxId` (new records, also those a
 * seeder wrote into KV without marks). So a load returns what KV holds, as long as every
 * writer of an existing record marks it (both actors do; nothing else writes them).
 *
 * A save: the actor's `capture` (one turn: the record objects as they are, never mutated
 * afterwards, since both actors replace a record on change; marks switch to the new
 * generation) → its reply, which the runtime releases only after every earlier write of the
 * actor settled → a `token` check that the actor was not reset meanwhile (a refused write
 * evicts it, and what was captured may then hold a change KV never took) → each chunk packed
 * and written in turn, with a pause after each → head → marks of older generations deleted. It runs in the background of the actor
 * system (ActorSystem.background), so a close waits for it. A save starts when the area's
 * records are at least `minRecords` and there is no snapshot yet, or when the records changed
 * since the last one (each counted once, `SnapshotState.changes`) reach a twentieth of the
 * records (at least `minRecords` of them): nothing for a small company, and a start never
 * reads more than about 5 % of the records one by one.
 */
import { appendedEntries, isAppendedPart } from "./appended_log.ts";
import { Packr } from "msgpackr";
import { CHUNK, deleteRange, eachChunk, readHead, saveChunks, type SavedHead, type Yield } from "./saved_chunks.ts";
import type { ActorSystem } from "./system.ts";
import type { ActorContext, AnyActorDef } from "./actor.ts";
import { log } from "./log.ts";

/** Format of the packed records; a head of another version is ignored (full load). */
const VERSION = 2;
/**
 * msgpackr's options: records (a record's keys written once per shape, not per record) whose
 * shapes are shared by every chunk of a save and kept in the head, so each chunk decodes
 * alone; strings bundled (one TextDecoder call per chunk). Measured on 200,000 tickets: unpack
 * 86–145 ms (records with their shapes inline in each chunk 280–340 ms; JSON rows 335–434 ms);
 * packing, in a save's background, ~1.3–1.8 s.
 */
const packOptions = (structures: object[]) => ({
  structures,
  useRecords: true,
  bundleStrings: true,
  maxSharedStructures: 64,
});
/** Records packed per chunk at first (~175 B each); a chunk over CHUNK is split in two. */
const RECORDS_PER_CHUNK = 300;
/** Marked records read per `getMany` (KV's limit) and reads in flight at once. */
const GETS_PER_READ = 10;
const READS_IN_FLIGHT = 16;

/** One area's keys and records. */
export interface SnapshotArea<R extends { id: number }> {
  /** "ticket" or "contact": names the keys. */
  name: string;
  /** The prefix of the company's records, keyed by numeric id. */
  recordPrefix(companyId: number): Deno.KvKey;
  /** A record as KV's list or get gives it, in the shape the actor keeps. */
  fromStore(raw: unknown): R;
  /**
   * A record as a chunk gives it (saved from the actor's own shape, so the same keys in the
   * same order): the shape the actor keeps, best in place, since a copy of a million records
   * is a million more objects for the collector at start.
   */
  fromChunk(unpacked: R): R;
  /**
   * A second key per record that holds a newer copy of some of its fields (the tickets'
   * latest-message fields, actors/tickets/latest.ts): read with every record read one by one, and
   * applied to it.
   */
  companion?: {
    prefix(companyId: number): Deno.KvKey;
    apply(record: R, raw: unknown): R;
  };
}

/** What the head says besides its generation and chunk counts. */
interface SnapshotMeta {
  count: number;
  maxId: number;
  savedAt: number;
  /** The record shapes the chunks refer to (msgpackr's shared structures). */
  structures: object[];
}

/** The actor's bookkeeping of its snapshot, kept in its state. */
export interface SnapshotState {
  /** Generation of the last head loaded or saved (0: none). */
  gen: number;
  /** Generation new marks carry (null: no snapshot was ever captured, so no marks). */
  markGen: number | null;
  /**
   * Records changed since the last capture, or since the load (those replayed included):
   * what a start would read one by one. A record whose mark of the generation is durable is
   * not counted again (nor marked: `markLog`). Counting every change made a burst on a few
   * conversations of a big company save its whole desk over and over: at a million tickets,
   * a save (~7 s of packing, from the 200,000-ticket figure above) every 50,000 messages,
   * back to back at 10,000 messages/s, though a start would have read only those few
   * thousand tickets again (issue #34).
   */
  changes: number;
  saving: boolean;
  /** Changes at every load: a capture whose token differs came from a state since reset. */
  token: string;
  /**
   * The records whose mark of generation `gen` is durable, a bit per id (`markDurable`): a
   * later change of one in the same generation needs no mark of its own, since a load re-reads
   * a marked record once however many marks it has. A ticket noted per inbound message and
   * accepted, then closed, was marked again at each change.
   */
  marked?: { gen: number; bits: Uint8Array };
}

/** The area's snapshot key root for a company. */
export const snapshotRoot = (area: SnapshotArea<{ id: number }>, companyId: number): Deno.KvKey => [
  `${area.name}_snapshot`,
  companyId,
];

const markPrefix = (area: SnapshotArea<{ id: number }>, companyId: number): Deno.KvKey => [
  `${area.name}_mark`,
  companyId,
];

/** The KV kinds (first key parts) of an area's snapshot data, for the tenant purge. */
export const snapshotKinds = (name: string): string[] => [`${name}_snapshot`, `${name}_mark`];

const markingKey = (area: SnapshotArea<{ id: number }>, companyId: number): Deno.KvKey => [
  ...snapshotRoot(area, companyId),
  "marking",
];

/** The flag a first capture writes (in the capture's own commit; see the module doc). */
export function markingFlag(area: SnapshotArea<{ id: number }>, companyId: number): [Deno.KvKey, true] {
  return [markingKey(area, companyId), true];
}

/**
 * The mark log to append record `id` to with a change of it (`[…_mark, company, gen]`, one
 * value per commit: appended_log.ts): null while there is no snapshot, or when the record's
 * mark of the current generation is known to be durable (`markDurable`).
 */
export function markLog(
  area: SnapshotArea<{ id: number }>,
  companyId: number,
  snap: SnapshotState,
  id: number,
): { log: Deno.KvKey; logId: string } | null {
  const gen = snap.markGen;
  if (gen === null) {
    snap.changes++;
    return null;
  }
  const marked = snap.marked;
  if (marked !== undefined && marked.gen === gen && (marked.bits[id >>> 3] & (1 << (id & 7))) !== 0) return null;
  snap.changes++;
  const log = [...markPrefix(area, companyId), gen];
  return { log, logId: `${area.name}_mark:${companyId}:${gen}` };
}

/**
 * The records a listed mark names: a commit's appended value (`[…, gen, "<time>~…"]`), or one
 * mark per key as stores written before kept them (`[…, gen, at, id]`, `[…, gen, id]`).
 */
function* markedIds(entry: Deno.KvEntry<unknown>): Generator<number> {
  if (entry.key.length === 4 && isAppendedPart(entry.key[3])) {
    for (const [id] of appendedEntries(entry, 3)) yield Number(id);
  } else yield markedId(entry.key);
}

/** The record a mark's key names: its last part (`[…, gen, at, id]`, or `[…, gen, id]` before). */
function markedId(key: Deno.KvKey): number {
  return key[key.length - 1] as number;
}

/**
 * Notes that record `id`'s mark of generation `gen` is durable (called once its commit
 * succeeded, never for a refused one). A note for a generation that is no longer the one
 * marks carry (a capture came in between) is dropped: that mark says nothing about the new
 * generation, whose save must still learn of the record's later changes.
 */
export function markDurable(snap: SnapshotState, gen: number, id: number): void {
  if (snap.markGen !== gen) return;
  let marked = snap.marked;
  if (marked === undefined || marked.gen !== gen) marked = snap.marked = { gen, bits: new Uint8Array(1024) };
  const byte = id >>> 3;
  if (byte >= marked.bits.length) {
    const grown = new Uint8Array(Math.max(byte + 1, marked.bits.length * 2));
    grown.set(marked.bits);
    marked.bits = grown;
  }
  marked.bits[byte] |= 1 << (id & 7);
}

/** Whether a save should start now (see the module doc). */
export function saveDue(snap: SnapshotState, records: number, minRecords: number): boolean {
  if (snap.saving || records < minRecords) return false;
  return snap.gen === 0 || snap.changes >= Math.max(minRecords, records / 20);
}

/** What an actor's capture returns. */
export interface Capture<R> {
  gen: number;
  token: string;
  records: R[];
}

/** Starts a capture on the actor's turn: new marks carry the new generation from now on. */
export function beginCapture<R>(snap: SnapshotState, records: R[]): Capture<R> {
  const gen = snap.gen + 1;
  snap.markGen = Math.max(snap.markGen ?? 0, gen);
  snap.changes = 0;
  snap.saving = true;
  return { gen, token: snap.token, records };
}

/** The actor's side of a save, asked in order (see the module doc). */
export interface SaveSteps<R> {
  capture(): Promise<Capture<R>>;
  /** The actor's current token (a different one: it was reset since the capture). */
  token(): Promise<string>;
  /** The save ended; `gen` is the generation now saved, or null when it failed (`endSave`). */
  done(gen: number | null): Promise<void>;
}

/** The actor's `done`: a saved generation becomes the one a next capture follows. */
export function endSave(snap: SnapshotState, gen: number | null): void {
  snap.saving = false;
  if (gen === null || gen <= snap.gen) return;
  snap.gen = gen;
  snap.markGen = Math.max(snap.markGen ?? 0, gen);
}

/** Runs one save of the area's records for the company; see the module doc. */
export async function saveSnapshot<R extends { id: number }>(
  kv: Deno.Kv,
  area: SnapshotArea<R>,
  companyId: number,
  steps: SaveSteps<R>,
  pause: Yield,
): Promise<boolean> {
  let saved: number | null = null;
  try {
    const capture = await steps.capture();
    if (await steps.token() !== capture.token) return false;
    const records = ascendingById(capture.records);
    const structures: object[] = [];
    const meta = (): SnapshotMeta => ({
      count: records.length,
      maxId: records.length ? records[records.length - 1].id : 0,
      savedAt: Date.now(),
      structures, // complete once every chunk is packed
    });
    const root = snapshotRoot(area, companyId);
    const chunks = packedChunks(records, structures, pause);
    if (!await saveChunks(kv, root, VERSION, capture.gen, { r: chunks }, meta, pause)) return false;
    saved = capture.gen;
    log.info(`The ${area.name}s of company ${companyId}: snapshot ${saved} saved (${records.length} records)`);
    const marks = markPrefix(area, companyId);
    await deleteRange(kv, { start: marks, end: [...marks, capture.gen] }, pause);
    return true;
  } finally {
    await steps.done(saved);
  }
}

/**
 * The records ascending by id: as given when they are (the desk's records are in id order),
 * else through a native sort of the ids, which does not hold the thread the way a sort of a
 * million objects with a comparator would.
 */
function ascendingById<R extends { id: number }>(records: R[]): R[] {
  let sorted = true;
  for (let n = 1; n < records.length && sorted; n++) sorted = records[n - 1].id < records[n].id;
  if (sorted) return records;
  const byId = new Map<number, R>();
  const ids = new Float64Array(records.length);
  records.forEach((record, n) => {
    byId.set(record.id, record);
    ids[n] = record.id;
  });
  ids.sort();
  return Array.from(ids, (id) => byId.get(id)!);
}

/**
 * Records in chunks of at most CHUNK bytes, each decodable alone with `structures` (filled as
 * record shapes are met), made as they are written. Throws when `pause` says to stop.
 */
async function* packedChunks<R>(records: R[], structures: object[], pause: Yield): AsyncGenerator<Uint8Array> {
  const packer = new Packr(packOptions(structures));
  const packInto = (from: number, to: number, out: Uint8Array[]): void => {
    // A copy: the packer writes the next chunk into the same buffer.
    const bytes = packer.pack(records.slice(from, to)).slice();
    if (bytes.length <= CHUNK || to - from === 1) {
      out.push(bytes);
      return;
    }
    const middle = from + Math.floor((to - from) / 2);
    packInto(from, middle, out);
    packInto(middle, to, out);
  };
  for (let at = 0; at < records.length; at += RECORDS_PER_CHUNK) {
    const out: Uint8Array[] = [];
    packInto(at, Math.min(at + RECORDS_PER_CHUNK, records.length), out);
    yield* out;
    // A pause per chunk (~300 records, 1–2 ms of packing): requests wait at most that long.
    if (!await pause()) throw new Error("The snapshot's save stopped (the system is closing)");
  }
}

/** A snapshot read back with the changes since it replayed: the records as KV holds them. */
export interface LoadedSnapshot<R> {
  gen: number;
  /** Ascending by id. */
  records: R[];
  /** Records read one by one (marked or newer than the snapshot). */
  replayed: number;
}

/**
 * The company's records from its snapshot and the records changed since (`loaded`, null when
 * there is no usable snapshot: none, another format, a chunk missing; the caller then lists
 * the records), and the bookkeeping the actor's state starts with.
 */
export async function openSnapshot<R extends { id: number }>(
  kv: Deno.Kv,
  area: SnapshotArea<R>,
  companyId: number,
): Promise<{ loaded: LoadedSnapshot<R> | null; snap: SnapshotState }> {
  const [head, marking] = await Promise.all([
    readHead<SnapshotMeta>(kv, snapshotRoot(area, companyId)),
    kv.get<boolean>(markingKey(area, companyId)),
  ]);
  const loaded = head ? await loadSnapshot(kv, area, companyId, head) : null;
  if (loaded) {
    log.info(
      `The ${area.name}s of company ${companyId}: snapshot ${loaded.gen} loaded ` +
        `(${loaded.records.length} records, ${loaded.replayed} read since)`,
    );
  }
  const gen = loaded?.gen ?? 0;
  const snap: SnapshotState = {
    gen,
    markGen: marking.value || head ? gen + 1 : null,
    changes: loaded?.replayed ?? 0,
    saving: false,
    token: crypto.randomUUID(),
  };
  return { loaded, snap };
}

async function loadSnapshot<R extends { id: number }>(
  kv: Deno.Kv,
  area: SnapshotArea<R>,
  companyId: number,
  head: SavedHead<SnapshotMeta>,
): Promise<LoadedSnapshot<R> | null> {
  const root = snapshotRoot(area, companyId);
  if (head.version !== VERSION) return null;
  const records: (R | null)[] = [];
  const unpacker = new Packr(packOptions(head.structures));
  const complete = await eachChunk(kv, root, head, (_, chunk) => {
    for (const record of unpacker.unpack(chunk) as R[]) records.push(area.fromChunk(record));
  }, () => Promise.resolve(true));
  if (!complete) return null;
  if (records.length !== head.count) return null;
  const marked = new Set<number>();
  const marks = markPrefix(area, companyId);
  for await (const entry of kv.list({ prefix: marks, start: [...marks, head.gen] }, { batchSize: 200 })) {
    for (const id of markedIds(entry)) if (id <= head.maxId) marked.add(id);
  }
  const replayed = await replayMarked(kv, area, companyId, records, [...marked]);
  const newer = await listAfter(kv, area, companyId, head.maxId);
  return { gen: head.gen, records: replayed.concat(newer), replayed: marked.size + newer.length };
}

/** The records with ids after `maxId` (created since the capture), companions applied. */
async function listAfter<R extends { id: number }>(
  kv: Deno.Kv,
  area: SnapshotArea<R>,
  companyId: number,
  maxId: number,
): Promise<R[]> {
  const after = (prefix: Deno.KvKey) => kv.list({ prefix, start: [...prefix, maxId + 1] });
  const companions = new Map<number, unknown>();
  if (area.companion) {
    for await (const entry of after(area.companion.prefix(companyId))) companions.set(entry.key.at(-1) as number, entry.value);
  }
  const records: R[] = [];
  for await (const entry of after(area.recordPrefix(companyId))) {
    const record = area.fromStore(entry.value);
    const companion = companions.get(record.id);
    records.push(companion === undefined ? record : area.companion!.apply(record, companion));
  }
  return records;
}

/**
 * `records` (ascending by id) with each marked one as KV holds it now (gone when deleted),
 * still ascending by id.
 */
async function replayMarked<R extends { id: number }>(
  kv: Deno.Kv,
  area: SnapshotArea<R>,
  companyId: number,
  records: (R | null)[],
  marked: number[],
): Promise<R[]> {
  if (marked.length === 0) return records as R[];
  const prefix = area.recordPrefix(companyId);
  const { companion } = area;
  const companionPrefix = companion?.prefix(companyId);
  // With a companion, each record takes two of a read's keys.
  const perRead = companion ? GETS_PER_READ / 2 : GETS_PER_READ;
  const ids = new Float64Array(records.length);
  for (let n = 0; n < records.length; n++) ids[n] = records[n]!.id;
  const extra: R[] = [];
  let next = 0;
  const worker = async () => {
    while (next < marked.length) {
      const batch = marked.slice(next, next += perRead);
      const keys = batch.map((id) => [...prefix, id]);
      if (companionPrefix) for (const id of batch) keys.push([...companionPrefix, id]);
      const entries = await kv.getMany<unknown[]>(keys);
      batch.forEach((id, k) => {
        const at = positionOf(ids, id);
        const raw = entries[k].value;
        let value = raw === null ? null : area.fromStore(raw);
        const companionRaw = companion ? entries[batch.length + k].value : null;
        if (value && companionRaw !== null) value = companion!.apply(value, companionRaw);
        if (at >= 0) records[at] = value;
        else if (value) extra.push(value); // not in the capture: should not happen, kept anyway
      });
    }
  };
  await Promise.all(Array.from({ length: READS_IN_FLIGHT }, worker));
  const out = records.filter((r): r is R => r !== null);
  if (extra.length === 0) return out;
  return out.concat(extra).sort((a, b) => a.id - b.id);
}

/** Index of `id` in the ascending `ids`, or -1. */
function positionOf(ids: Float64Array, id: number): number {
  let low = 0;
  let high = ids.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    if (ids[middle] === id) return middle;
    if (ids[middle] < id) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/**
 * Starts a save in the background of `system` when one is due (`saveDue`); called by the
 * actor after each change and after its load. `steps` ask the actor (see SaveSteps).
 */
export function saveWhenDue<R extends { id: number }>(
  system: ActorSystem,
  area: SnapshotArea<R>,
  companyId: number,
  snap: SnapshotState,
  records: number,
  steps: () => SaveSteps<R>,
): void {
  if (!saveDue(snap, records, system.snapshotMinRecords)) return;
  snap.saving = true;
  system.background(`The ${area.name} snapshot of company ${companyId}`, (running) => {
    // Upkeep (slices.ts): nobody waits for a save, and it comes when records change, often
    // in a burst of messages.
    const pause = async () => {
      await system.slices.restLonger();
      return running();
    };
    return saveSnapshot(system.kv, area, companyId, steps(), pause);
  });
}

/** What `snapshotting` needs to know of an actor's state. */
export interface SnapshotParts<R> {
  companyId: number;
  snap: SnapshotState;
  /** Records held now (a save is due from `minRecords` on). */
  count: number;
  /** Every record as it is now, for a capture (read on the actor's turn). */
  records(): R[];
}

/**
 * The snapshot side of an actor that keeps a company's records (the ticket desk, the
 * contacts): `mark` goes with each write or delete of a record, in the same handler, and
 * `handlers` are spread into the actor's own (the save's steps and `snapshotIfDue`, asked
 * after the actor's first load). `self` is the actor's definition, asked lazily (it is
 * being defined with these handlers).
 */
export function snapshotting<S, R extends { id: number }>(
  area: SnapshotArea<R>,
  self: () => AnyActorDef,
  of: (state: S) => SnapshotParts<R>,
) {
  type Ctx = ActorContext<S>;
  const saveIfDue = (ctx: Ctx): void => {
    const parts = of(ctx.state);
    saveWhenDue(ctx.system, area, parts.companyId, parts.snap, parts.count, () => {
      const ask = <T>(handler: string, arg: unknown) =>
        ctx.system.deliver(self(), String(parts.companyId), handler, arg) as Promise<T>;
      return {
        capture: () => ask<Capture<R>>("snapshotCapture", null),
        token: () => ask<string>("snapshotToken", null),
        done: (gen) => ask<void>("snapshotDone", gen),
      };
    });
  };
  return {
    /** Marks record `id` as changed since the snapshot; a save starts when one is due. */
    mark(ctx: Ctx, id: number): void {
      const parts = of(ctx.state);
      const snap = parts.snap;
      const mark = markLog(area, parts.companyId, snap, id);
      if (mark) {
        ctx.append(mark.log, mark.logId, String(id), null);
        const gen = snap.markGen!;
        ctx.onDurable(() => markDurable(snap, gen, id));
      }
      saveIfDue(ctx);
    },
    handlers: {
      /** A snapshot's capture: every record as it is now. */
      snapshotCapture(ctx: Ctx): Capture<R> {
        const parts = of(ctx.state);
        ctx.set(...markingFlag(area, parts.companyId));
        return beginCapture(parts.snap, parts.records());
      },
      /** Which load this state comes from (a capture of another one is not saved). */
      snapshotToken(ctx: Ctx): string {
        return of(ctx.state).snap.token;
      },
      snapshotDone(ctx: Ctx, gen: number | null): void {
        endSave(of(ctx.state).snap, gen);
      },
      /** Starts a save when one is due (after a start: none yet, or many changes replayed). */
      snapshotIfDue(ctx: Ctx): void {
        saveIfDue(ctx);
      },
    },
  };
}
