/**
 * The raw-byte envelope around a backup's gzip stream (format 2): a fixed opening line, the
 * gzip stream, and a fixed-size trailer holding the stream's length and the SHA-256 of every
 * byte before the trailer, then a closing mark:
 *
 *   "balcao-backup 2\n" (16 bytes) | gzip stream | u64 BE length of the gzip stream
 *                                                | SHA-256 of opening line + gzip stream
 *                                                | "\nbalcao\n" (8 bytes)
 *
 * Why: the checks inside the gzip stream (chunk and overall SHA-256 over the decompressed
 * frames, gzip's own CRC-32) only see what decompression yields, and some file bytes never
 * reach it. The compressor sync-flushes after every frame, so each frame ends with up to 7
 * padding bits that inflate ignores, and gzip's header (MTIME, XFL, OS, the FTEXT flag) is
 * checked by nobody; a flipped bit there restored as if intact. Hashing the bytes as they sit
 * on disk closes every such gap. The trailer cannot hash itself, but each of its 48 bytes is
 * compared with an exact expected value (the length read, the hash computed, the constant
 * mark), so a flip there is refused too, as is any byte appended after it (the last 48 bytes
 * are then not a trailer) or a missing tail.
 *
 * Format 1 files (a bare gzip stream, written before this envelope) still restore: they are
 * recognised by gzip's magic bytes and read with the checks they were written with (their
 * inner SHA-256s and CRC-32), so a flipped padding bit in them stays undetectable.
 */
import { createHash } from "node:crypto";
import { BackupError } from "./format.ts";

/** Bytes over a plain ArrayBuffer, as the file and gzip streams take and give them. */
type Bytes = Uint8Array<ArrayBuffer>;

const encoder = new TextEncoder();
export const OPENING = encoder.encode("balcao-backup 2\n");
const CLOSING = encoder.encode("\nbalcao\n");
/** u64 length + SHA-256 + closing mark. */
export const TRAILER_BYTES = 8 + 32 + CLOSING.length;
const GZIP_MAGIC = [0x1f, 0x8b];

/** Which envelope a file turned out to have, known once its first bytes were read. */
export interface EnvelopeKind {
  /** 1: a bare gzip stream (format 1, no whole-file check); 2: this envelope. */
  envelope?: 1 | 2;
}

/** The writer's side: the opening line first, then the gzip bytes, then the trailer on close. */
export function sealing(): TransformStream<Bytes, Bytes> {
  const hash = createHash("sha256");
  let length = 0n;
  return new TransformStream({
    start(controller) {
      hash.update(OPENING);
      controller.enqueue(OPENING.slice());
    },
    transform(bytes, controller) {
      hash.update(bytes);
      length += BigInt(bytes.length);
      controller.enqueue(bytes);
    },
    flush(controller) {
      controller.enqueue(trailer(length, new Uint8Array(hash.digest())));
    },
  });
}

function trailer(length: bigint, digest: Uint8Array): Bytes {
  const bytes = new Uint8Array(TRAILER_BYTES);
  new DataView(bytes.buffer).setBigUint64(0, length);
  bytes.set(digest, 8);
  bytes.set(CLOSING, 40);
  return bytes;
}

/**
 * The reader's side: passes on the gzip stream only, holding back the last TRAILER_BYTES, and
 * errors the stream with a BackupError when the file ends if the opening line, the length,
 * the SHA-256 or the closing mark differ. `kind.envelope` tells the caller which format the
 * file's first bytes announced (bare gzip streams pass through unchecked).
 */
export function unsealing(kind: EnvelopeKind): TransformStream<Bytes, Bytes> {
  const hash = createHash("sha256");
  let head: Bytes = new Uint8Array(0);
  let tail: Bytes = new Uint8Array(0);
  let length = 0n;
  const pass = (bytes: Bytes, controller: TransformStreamDefaultController<Bytes>) => {
    if (kind.envelope === 1) return controller.enqueue(bytes);
    // Keep the last TRAILER_BYTES back: they may be the trailer.
    const joined = concat(tail, bytes);
    const cut = Math.max(0, joined.length - TRAILER_BYTES);
    if (cut > 0) {
      const body = joined.subarray(0, cut);
      hash.update(body);
      length += BigInt(body.length);
      controller.enqueue(body);
    }
    tail = joined.slice(cut);
  };
  return new TransformStream({
    transform(bytes, controller) {
      if (kind.envelope === undefined) {
        head = concat(head, bytes);
        if (head.length < OPENING.length && !startsGzip(head)) return;
        kind.envelope = startsGzip(head) ? 1 : 2;
        if (kind.envelope === 2) {
          if (!equalBytes(head.subarray(0, OPENING.length), OPENING)) throw new BackupError("Not a Balcão backup: it does not start with the backup's opening line");
          hash.update(OPENING);
        }
        const rest = kind.envelope === 2 ? head.subarray(OPENING.length) : head;
        head = new Uint8Array(0);
        return pass(rest, controller);
      }
      pass(bytes, controller);
    },
    flush() {
      if (kind.envelope === 1) return;
      if (kind.envelope === undefined) throw new BackupError("Not a Balcão backup: it is too short to hold one");
      if (tail.length < TRAILER_BYTES) throw new BackupError("The backup ends before its trailer: the file is truncated");
      const view = new DataView(tail.buffer, tail.byteOffset, TRAILER_BYTES);
      if (!equalBytes(tail.subarray(40), CLOSING)) {
        throw new BackupError("The backup does not end with its trailer: the file is truncated, damaged or has data appended");
      }
      if (view.getBigUint64(0) !== length) {
        throw new BackupError(`The backup's trailer declares ${view.getBigUint64(0)} bytes but the file holds ${length}: the file is damaged`);
      }
      if (!equalBytes(new Uint8Array(hash.digest()), tail.subarray(8, 40))) {
        throw new BackupError("The backup's file SHA-256 does not match its bytes: the file is damaged");
      }
    },
  });
}

function startsGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === GZIP_MAGIC[0] && bytes[1] === GZIP_MAGIC[1];
}

function concat(a: Bytes, b: Bytes): Bytes {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** Byte-wise equality. */
export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
