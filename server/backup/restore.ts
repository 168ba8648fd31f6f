/**
 * `deno task restore <file>`'s work, in two passes so nothing is written from a bad file:
 *
 * 1. Verify: stream the whole file, checking every chunk's SHA-256, the overall SHA-256,
 *    the counts, and that every key, value and queue message decodes.
 * 2. Load into a staging store beside the target (`<kv>.restoring`, `<data>.restoring`),
 *    checking everything again as it goes, then swap it into place with renames. The target
 *    must be empty (no store file with keys, no media) unless `force`, which keeps the old
 *    ones aside as `….before-restore-<time>` rather than deleting them.
 *
 * Stop the server before restoring: it would keep writing to the store it has open.
 */
import * as v8 from "node:v8";
import { dirname, isAbsolute, join, normalize } from "node:path";
import { createHash, type Hash } from "node:crypto";
import { BackupError, type Counts, FORMAT_VERSION, type HeaderFrame, KvRecord, QueueRecord } from "./format.ts";
import { equalBytes, readFrames, unpackBody } from "./frames.ts";
import { decodeKey } from "./key_codec.ts";

export interface RestoreOptions {
  /** The backup file. */
  file: string;
  /** The store file to create (BALCAO_KV). */
  kvPath: string;
  /** The media folder to create (BALCAO_DATA); undefined skips the media. */
  dataDir?: string;
  /** Replace a non-empty target (kept aside, not deleted). */
  force?: boolean;
}

export interface RestoreResult extends Counts {
  header: HeaderFrame;
  /** Entries whose expiry passed between the backup and the restore (not written). */
  expired: number;
  /** Where the replaced store and media were moved, when `force` replaced something. */
  keptAside: string[];
  ms: number;
}

/** KV's longest enqueue delay. */
const MAX_DELAY_MS = 30 * 24 * 3600 * 1000;

/** Streams the file and checks everything restore would rely on; writes nothing. */
export async function verifyBackup(file: string): Promise<{ header: HeaderFrame; counts: Counts }> {
  let header: HeaderFrame | undefined;
  const seen: Counts = { entries: 0, queue: 0, files: 0, fileBytes: 0, chunks: 0 };
  const files = new FileChecker();
  for await (const frame of readFrames(file)) {
    if (frame.t === "header") header = checkHeader(frame);
    else if (frame.t === "chunk") {
      seen.chunks++;
      if (frame.kind === "kv") {
        const records = kvRecords(frame.body, frame.n);
        for (const record of records) decodeEntry(record, frame.n);
        seen.entries += records.length;
      } else if (frame.kind === "queue") {
        const records = queueRecords(frame.body, frame.n);
        for (const record of records) decodeQueued(record, frame.n);
        seen.queue += records.length;
      } else files.data(frame.body);
    } else if (frame.t === "file") files.start(frame.path);
    else if (frame.t === "file-end") {
      files.end(frame);
      seen.files++;
      seen.fileBytes += frame.size;
    } else checkCounts(frame.counts, seen);
  }
  return { header: header!, counts: seen };
}

/** Verifies, then loads the backup into an empty store (and media folder); see the module doc. */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreResult> {
  const started = performance.now();
  const { kvPath, dataDir } = options;
  if (kvPath === ":memory:" || /^https?:\/\//.test(kvPath)) {
    throw new BackupError(`Cannot restore into ${kvPath}: restore writes a store file (a path on this machine)`);
  }
  const occupied = [
    ...(await storeHasKeys(kvPath) ? [kvPath] : []),
    ...(dataDir && await folderHasFiles(dataDir) ? [dataDir] : []),
  ];
  if (occupied.length > 0 && !options.force) {
    throw new BackupError(`Refusing to restore over ${occupied.join(" and ")}: not empty (--force replaces it, keeping the old one aside)`);
  }
  await verifyBackup(options.file);

  const stagingKv = `${kvPath}.restoring`;
  const stagingData = dataDir ? `${dataDir}.restoring` : undefined;
  await removeStore(stagingKv);
  if (stagingData) await Deno.remove(stagingData, { recursive: true }).catch(() => {});
  await Deno.mkdir(dirname(stagingKv), { recursive: true });
  if (stagingData) await Deno.mkdir(stagingData, { recursive: true });

  let loaded: { header: HeaderFrame; counts: Counts; expired: number };
  try {
    loaded = await load(options.file, stagingKv, stagingData);
  } catch (error) {
    await removeStore(stagingKv);
    if (stagingData) await Deno.remove(stagingData, { recursive: true }).catch(() => {});
    throw error;
  }

  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const keptAside: string[] = [];
  if (await exists(kvPath)) {
    const aside = `${kvPath}.before-restore-${stamp}`;
    await moveStore(kvPath, aside);
    if (occupied.includes(kvPath)) keptAside.push(aside);
    else await removeStore(aside);
  }
  await moveStore(stagingKv, kvPath);
  if (dataDir && stagingData) {
    if (await exists(dataDir)) {
      const aside = `${dataDir}.before-restore-${stamp}`;
      await Deno.rename(dataDir, aside);
      if (occupied.includes(dataDir)) keptAside.push(aside);
      else await Deno.remove(aside, { recursive: true });
    }
    await Deno.rename(stagingData, dataDir);
  }
  return { ...loaded.counts, header: loaded.header, expired: loaded.expired, keptAside, ms: Math.round(performance.now() - started) };
}

/** Pass 2: writes every frame into the staging store and folder. */
async function load(file: string, kvPath: string, dataDir: string | undefined) {
  const kv = await Deno.openKv(kvPath);
  const batch = new AtomicBatch(kv);
  const files = new FileChecker();
  let header: HeaderFrame | undefined;
  let out: Deno.FsFile | undefined;
  let expired = 0;
  const seen: Counts = { entries: 0, queue: 0, files: 0, fileBytes: 0, chunks: 0 };
  try {
    for await (const frame of readFrames(file)) {
      const now = Date.now();
      if (frame.t === "header") header = checkHeader(frame);
      else if (frame.t === "chunk") {
        seen.chunks++;
        if (frame.kind === "kv") {
          for (const record of kvRecords(frame.body, frame.n)) {
            const { key, value, expiresAt } = decodeEntry(record, frame.n);
            seen.entries++;
            if (expiresAt !== null && expiresAt <= now) {
              expired++;
              continue;
            }
            const expireIn = expiresAt === null ? undefined : expiresAt - now;
            await batch.set(key, value, record[0].length + record[2].length, expireIn);
          }
        } else if (frame.kind === "queue") {
          for (const record of queueRecords(frame.body, frame.n)) {
            const { value, due, backoff, keys } = decodeQueued(record, frame.n);
            seen.queue++;
            const delay = Math.min(MAX_DELAY_MS, Math.max(0, due - now));
            await batch.enqueue(value, record[1].length, {
              delay,
              ...(backoff.length > 0 ? { backoffSchedule: backoff } : {}),
              ...(keys.length > 0 ? { keysIfUndelivered: keys } : {}),
            });
          }
        } else {
          files.data(frame.body);
          await out?.write(frame.body);
        }
      } else if (frame.t === "file") {
        files.start(frame.path);
        if (dataDir) {
          const path = join(dataDir, safeRelative(frame.path));
          await Deno.mkdir(dirname(path), { recursive: true });
          out = await Deno.open(path, { write: true, createNew: true });
        }
      } else if (frame.t === "file-end") {
        out?.close();
        out = undefined;
        files.end(frame);
        seen.files++;
        seen.fileBytes += frame.size;
      } else {
        await batch.flush();
        checkCounts(frame.counts, seen);
      }
    }
  } finally {
    out?.close();
    kv.close();
  }
  return { header: header!, counts: seen, expired };
}

/** Sets and enqueues gathered into atomics within KV's limits (restore owns the store). */
class AtomicBatch {
  #atomic: Deno.AtomicOperation;
  #mutations = 0;
  #bytes = 0;
  #enqueues = 0;
  constructor(readonly kv: Deno.Kv) {
    this.#atomic = kv.atomic();
  }

  async set(key: Deno.KvKey, value: unknown, bytes: number, expireIn?: number): Promise<void> {
    if (this.#mutations >= 500 || this.#bytes + bytes > 600_000) await this.flush();
    this.#atomic.set(key, value, expireIn === undefined ? undefined : { expireIn });
    this.#mutations++;
    this.#bytes += bytes;
  }

  async enqueue(value: unknown, bytes: number, options: Parameters<Deno.AtomicOperation["enqueue"]>[1]): Promise<void> {
    if (this.#mutations >= 500 || this.#enqueues >= 50 || this.#bytes + bytes > 600_000) await this.flush();
    this.#atomic.enqueue(value, options);
    this.#mutations++;
    this.#enqueues++;
    this.#bytes += bytes;
  }

  async flush(): Promise<void> {
    if (this.#mutations === 0) return;
    const result = await this.#atomic.commit();
    if (!result.ok) throw new Error("The staging store refused a commit");
    this.#atomic = this.kv.atomic();
    this.#mutations = this.#bytes = this.#enqueues = 0;
  }
}

/** Follows the media frames: each file's bytes must match its size and SHA-256. */
class FileChecker {
  #path?: string;
  #hash?: Hash;
  #size = 0;

  start(path: string): void {
    safeRelative(path);
    if (this.#path) throw new BackupError(`File ${this.#path} has no end before ${path}`);
    this.#path = path;
    this.#hash = createHash("sha256");
    this.#size = 0;
  }

  data(bytes: Uint8Array): void {
    if (!this.#hash) throw new BackupError("File data outside a file");
    this.#hash.update(bytes);
    this.#size += bytes.length;
  }

  end(frame: { path: string; size: number; sha256: Uint8Array }): void {
    if (frame.path !== this.#path || !this.#hash) throw new BackupError(`File end of ${frame.path} without its start`);
    const digest = new Uint8Array(this.#hash.digest());
    if (this.#size !== frame.size || !equalBytes(digest, frame.sha256)) {
      throw new BackupError(`Media file ${frame.path} does not match its size and SHA-256: the file is damaged`);
    }
    this.#path = this.#hash = undefined;
  }
}

function checkHeader(header: HeaderFrame): HeaderFrame {
  if (header.format > FORMAT_VERSION) {
    throw new BackupError(`The backup has format ${header.format}; this Balcão reads up to ${FORMAT_VERSION}: restore with a newer version`);
  }
  return header;
}

function checkCounts(declared: Counts, seen: Counts): void {
  for (const name of Object.keys(declared) as Array<keyof Counts>) {
    if (declared[name] !== seen[name]) {
      throw new BackupError(`The backup declares ${declared[name]} ${name} but holds ${seen[name]}: the file is damaged`);
    }
  }
}

function kvRecords(body: Uint8Array, n: number): KvRecord[] {
  const parsed = KvRecord.array().safeParse(unpackChunk(body, n));
  if (!parsed.success) throw new BackupError(`Chunk ${n} does not hold store entries: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}

function queueRecords(body: Uint8Array, n: number): QueueRecord[] {
  const parsed = QueueRecord.array().safeParse(unpackChunk(body, n));
  if (!parsed.success) throw new BackupError(`Chunk ${n} does not hold queue messages: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}

function unpackChunk(body: Uint8Array, n: number): unknown {
  try {
    return unpackBody(body);
  } catch (error) {
    throw new BackupError(`Chunk ${n} is not msgpack: the file is damaged`, { cause: error });
  }
}

/** A store entry as `kv.set` takes it. */
export function decodeEntry(record: KvRecord, chunk: number): { key: Deno.KvKey; value: unknown; expiresAt: number | null } {
  const [rawKey, encoding, rawValue, expiresAt] = record;
  try {
    const key = decodeKey(rawKey);
    let value: unknown;
    if (encoding === 1) value = v8.deserialize(rawValue);
    else if (encoding === 2) {
      if (rawValue.length !== 8) throw new Error("a u64 is 8 bytes");
      value = new Deno.KvU64(new DataView(rawValue.buffer, rawValue.byteOffset, 8).getBigUint64(0, true));
    } else value = rawValue.slice();
    return { key, value, expiresAt };
  } catch (error) {
    throw new BackupError(`Chunk ${chunk} holds an entry that does not decode: ${(error as Error).message}`, { cause: error });
  }
}

function decodeQueued(record: QueueRecord, chunk: number) {
  const [due, data, backoff, keys] = record;
  try {
    return { due, value: v8.deserialize(data) as unknown, backoff, keys: keys.map(decodeKey) };
  } catch (error) {
    throw new BackupError(`Chunk ${chunk} holds a queue message that does not decode: ${(error as Error).message}`, { cause: error });
  }
}

/** A media path from the file: relative and inside the folder, never `..` or absolute. */
function safeRelative(path: string): string {
  const clean = normalize(path);
  if (isAbsolute(clean) || clean.startsWith("..") || clean.includes("\0")) {
    throw new BackupError(`Media path ${JSON.stringify(path)} leaves the media folder`);
  }
  return clean;
}

async function storeHasKeys(path: string): Promise<boolean> {
  if (!await exists(path)) return false;
  const kv = await Deno.openKv(path);
  try {
    for await (const _ of kv.list({ prefix: [] }, { limit: 1 })) return true;
    return false;
  } finally {
    kv.close();
  }
}

async function folderHasFiles(dir: string): Promise<boolean> {
  try {
    for await (const _ of Deno.readDir(dir)) return true;
    return false;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/** A SQLite store is its file plus, while open or after a crash, `-wal` and `-shm`. */
const STORE_FILES = ["", "-wal", "-shm"];

async function moveStore(from: string, to: string): Promise<void> {
  for (const suffix of STORE_FILES) {
    if (await exists(from + suffix)) await Deno.rename(from + suffix, to + suffix);
  }
}

async function removeStore(path: string): Promise<void> {
  for (const suffix of STORE_FILES) await Deno.remove(path + suffix).catch(() => {});
}
