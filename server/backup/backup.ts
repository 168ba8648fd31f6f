/**
 * `deno task backup <file>`'s work: the store's snapshot (snapshot.ts) and then the media
 * folder, streamed as frames (format.ts) into `<file>.partial`, renamed to `<file>` only once
 * complete, so an interrupted backup never looks like a finished one.
 *
 * Media files are included, whole, after the store. Order matters: the store is read first
 * (at one commit), then the folder is walked; a media file is written before the record that
 * names it is committed and is not changed afterwards, so every file the snapshot names is
 * in the walk (a file written meanwhile may be too: an unreferenced extra, harmless).
 */
import { join, relative } from "node:path";
import { createHash } from "node:crypto";
import pkg from "../../package.json" with { type: "json" };
import { CHUNK_BYTES, type ChunkKind, type Counts, FORMAT_VERSION, MAGIC } from "./format.ts";
import { FrameWriter, packBody, sha256 } from "./frames.ts";
import { StoreSnapshot } from "./snapshot.ts";

export interface BackupOptions {
  /** The store's SQLite file (BALCAO_KV). */
  kvPath: string;
  /** The media folder (BALCAO_DATA); undefined leaves media out. */
  dataDir?: string;
  /** Where to write the backup. */
  out: string;
}

export interface BackupResult extends Counts {
  versionstamp: string;
  bytes: number;
  ms: number;
}

/** Writes a backup of the store (and media) at `options.out`; see the module doc. */
export async function writeBackup(options: BackupOptions): Promise<BackupResult> {
  const started = performance.now();
  const partial = `${options.out}.partial`;
  const snapshot = StoreSnapshot.open(options.kvPath);
  const file = await Deno.open(partial, { write: true, create: true, truncate: true });
  const writer = new FrameWriter(file);
  const counts: Counts = { entries: 0, queue: 0, files: 0, fileBytes: 0, chunks: 0 };
  const chunk = async (kind: ChunkKind, body: Uint8Array) => {
    await writer.write({ t: "chunk", n: counts.chunks++, kind, body, sha256: sha256(body) });
  };
  try {
    await writer.write({
      t: "header",
      magic: MAGIC,
      format: FORMAT_VERSION,
      app: pkg.name,
      appVersion: pkg.version,
      deno: Deno.version.deno,
      createdAt: new Date(snapshot.takenAt).toISOString(),
      versionstamp: snapshot.versionstamp,
      consistency: "sqlite-read-transaction",
    });
    try {
      await writeGrouped(snapshot.entries(), (r) => r[0].length + r[2].length + 40, async (records) => {
        counts.entries += records.length;
        await chunk("kv", packBody(records));
      });
      await writeGrouped(snapshot.queue(), (r) => r[1].length + 40, async (records) => {
        counts.queue += records.length;
        await chunk("queue", packBody(records));
      });
    } finally {
      snapshot.close();
    }
    if (options.dataDir) {
      for await (const path of mediaFiles(options.dataDir)) {
        const name = relative(options.dataDir, path);
        const hash = createHash("sha256");
        let size = 0;
        const media = await Deno.open(path, { read: true }).catch((error) => {
          if (error instanceof Deno.errors.NotFound) return undefined; // deleted since the walk
          throw error;
        });
        if (!media) continue;
        await writer.write({ t: "file", path: name });
        for await (const piece of readPieces(media)) {
          hash.update(piece);
          size += piece.length;
          await chunk("file", piece);
        }
        await writer.write({ t: "file-end", path: name, size, sha256: new Uint8Array(hash.digest()) });
        counts.files++;
        counts.fileBytes += size;
      }
    }
    await writer.end(counts);
  } catch (error) {
    await writer.abort();
    await Deno.remove(partial).catch(() => {});
    throw error;
  }
  await Deno.rename(partial, options.out);
  const { size } = await Deno.stat(options.out);
  return { ...counts, versionstamp: snapshot.versionstamp, bytes: size, ms: Math.round(performance.now() - started) };
}

/** Regroups batches of records into chunk bodies of about CHUNK_BYTES. */
async function writeGrouped<T>(
  batches: Iterable<T[]>,
  size: (record: T) => number,
  flush: (records: T[]) => Promise<void>,
): Promise<void> {
  let group: T[] = [];
  let bytes = 0;
  for (const batch of batches) {
    for (const record of batch) {
      group.push(record);
      bytes += size(record);
      if (bytes >= CHUNK_BYTES) {
        await flush(group);
        group = [];
        bytes = 0;
      }
    }
  }
  if (group.length > 0) await flush(group);
}

/** Every regular file under `dir`, depth first in name order (a missing folder has none). */
async function* mediaFiles(dir: string): AsyncGenerator<string> {
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(dir));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    throw error;
  }
  entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* mediaFiles(path);
    else if (entry.isFile) yield path;
  }
}

/** Reads an open file in pieces of CHUNK_BYTES, closing it at the end. */
async function* readPieces(file: Deno.FsFile): AsyncGenerator<Uint8Array> {
  try {
    while (true) {
      const buffer = new Uint8Array(CHUNK_BYTES);
      let filled = 0;
      while (filled < buffer.length) {
        const n = await file.read(buffer.subarray(filled));
        if (n === null) break;
        filled += n;
      }
      if (filled > 0) yield buffer.subarray(0, filled);
      if (filled < buffer.length) return;
    }
  } finally {
    file.close();
  }
}
