/**
 * The backup file format, version 2: a gzip stream of frames inside an envelope that checks
 * every byte of the file (envelope.ts; version 1 was the bare gzip stream, still readable).
 * Each frame is a 4-byte big-endian length and a msgpack payload, one of the `Frame` union
 * below, in this order:
 *
 *   header                      what wrote it (app and format version) and the store's
 *                               versionstamp at the snapshot
 *   chunk kind "kv"  × n        store entries, in key order
 *   chunk kind "queue" × n      KV queue messages (the actors' armed timers)
 *   file, chunk kind "file" × n, file-end    per media file
 *   end                         counts and the SHA-256 of every frame before it
 *
 * Every chunk carries the SHA-256 of its body, so a damaged file is refused chunk by chunk
 * and, through `end`, as a whole (a missing tail is a missing `end`). Chunks bound memory:
 * writer and reader hold one chunk at a time, never the store.
 *
 * Store entries keep the key as KV's own encoded bytes and the value as KV's own encoding
 * (V8 serialization, little-endian u64 or raw bytes): exactly what the store held, so every
 * structured-clone type (Date, Map, bigint, undefined, KvU64…) comes back identical, which
 * msgpack alone would not guarantee. restore.ts decodes them into `kv.set` calls.
 */
import { z } from "zod";

/** Bumped when a reader of the previous version could no longer read the file. */
export const FORMAT_VERSION = 2;
export const MAGIC = "balcao-backup";

/** Target size of a chunk's body: big enough to compress well, small enough to hold. */
export const CHUNK_BYTES = 1 << 20;

/** Bytes as msgpack gives them back (a Uint8Array, or a Buffer view of one). */
const Bytes = z.custom<Uint8Array>((v) => v instanceof Uint8Array, "expected bytes");
const Sha256 = Bytes.refine((b) => b.length === 32, "a SHA-256 is 32 bytes");

export const HeaderFrame = z.object({
  t: z.literal("header"),
  magic: z.literal(MAGIC),
  format: z.number().int(),
  app: z.string(),
  appVersion: z.string(),
  deno: z.string(),
  createdAt: z.string(),
  /** The store's last committed version inside the snapshot, as a 20-hex versionstamp. */
  versionstamp: z.string(),
  /** How the snapshot was taken (see snapshot.ts). */
  consistency: z.string(),
});
export type HeaderFrame = z.infer<typeof HeaderFrame>;

export const ChunkKind = z.enum(["kv", "queue", "file"]);
export type ChunkKind = z.infer<typeof ChunkKind>;

export const ChunkFrame = z.object({
  t: z.literal("chunk"),
  /** Position among all chunks, from 0: a dropped or repeated chunk is caught. */
  n: z.number().int().nonnegative(),
  kind: ChunkKind,
  body: Bytes,
  sha256: Sha256,
});
export type ChunkFrame = z.infer<typeof ChunkFrame>;

export const FileFrame = z.object({ t: z.literal("file"), path: z.string().min(1) });
export const FileEndFrame = z.object({
  t: z.literal("file-end"),
  path: z.string().min(1),
  size: z.number().int().nonnegative(),
  sha256: Sha256,
});

export const Counts = z.object({
  entries: z.number().int().nonnegative(),
  queue: z.number().int().nonnegative(),
  files: z.number().int().nonnegative(),
  fileBytes: z.number().int().nonnegative(),
  chunks: z.number().int().nonnegative(),
});
export type Counts = z.infer<typeof Counts>;

export const EndFrame = z.object({ t: z.literal("end"), counts: Counts, sha256: Sha256 });
export type EndFrame = z.infer<typeof EndFrame>;

export const Frame = z.discriminatedUnion("t", [HeaderFrame, ChunkFrame, FileFrame, FileEndFrame, EndFrame]);
export type Frame = z.infer<typeof Frame>;

/**
 * One store entry inside a "kv" chunk body: encoded key, value encoding (1 V8, 2 u64 LE,
 * 3 bytes), encoded value, absolute expiry in ms or null, versionstamp in the source store.
 */
export const KvRecord = z.tuple([Bytes, z.union([z.literal(1), z.literal(2), z.literal(3)]), Bytes, z.number().nullable(), z.string()]);
export type KvRecord = z.infer<typeof KvRecord>;

/**
 * One queue message inside a "queue" chunk body: due time in ms, V8-serialized message,
 * backoff schedule (ms list), encoded keys to set if it is never delivered.
 */
export const QueueRecord = z.tuple([z.number(), Bytes, z.array(z.number()), z.array(Bytes)]);
export type QueueRecord = z.infer<typeof QueueRecord>;

/** A backup the reader cannot trust; the message says which part and why. */
export class BackupError extends Error {
  override name = "BackupError";
}
