/**
 * Frames on disk (format.ts): the writer packs, length-prefixes, hashes and gzips them into a
 * file with backpressure, inside the envelope that hashes the file's own bytes (envelope.ts);
 * the reader streams them back, checking every chunk's SHA-256, the chunks' order, the running
 * SHA-256 that the `end` frame carries and the envelope's. Both hold one frame at a time, so
 * neither needs memory for the whole store.
 */
import { createHash, type Hash } from "node:crypto";
import { Packr } from "msgpackr";
import { BackupError, type Counts, type EndFrame, Frame } from "./format.ts";
import { equalBytes, type EnvelopeKind, sealing, unsealing } from "./envelope.ts";

export { equalBytes };

/** Plain msgpack (no msgpackr records): any msgpack reader can walk the frames. */
const packr = new Packr({ useRecords: false });

/** Larger than any frame a writer makes (chunks are ~1 MiB): a damaged length is refused. */
const MAX_FRAME_BYTES = 64 << 20;

/** SHA-256 of `bytes`. */
export function sha256(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(createHash("sha256").update(bytes).digest());
}

/** Packs a value as a chunk body. */
export function packBody(value: unknown): Uint8Array {
  return packr.pack(value);
}

/** Unpacks a chunk body (already checked against its SHA-256). */
export function unpackBody(bytes: Uint8Array): unknown {
  return packr.unpack(bytes);
}

/** Writes frames to `file`; call `end` once, which also closes the file. */
export class FrameWriter {
  #hash: Hash = createHash("sha256");
  #writer: WritableStreamDefaultWriter<BufferSource>;
  #piped: Promise<void>;

  constructor(file: Deno.FsFile) {
    const gzip = new CompressionStream("gzip");
    this.#piped = gzip.readable.pipeThrough(sealing()).pipeTo(file.writable);
    this.#writer = gzip.writable.getWriter();
  }

  /** Appends one frame (waits while the compressor and the disk catch up). */
  async write(frame: Frame): Promise<void> {
    const bytes = frameBytes(frame);
    this.#hash.update(bytes);
    await this.#writer.ready;
    await this.#writer.write(bytes);
  }

  /** Appends the `end` frame with the running hash and flushes the file. */
  async end(counts: Counts): Promise<void> {
    const end: EndFrame = { t: "end", counts, sha256: new Uint8Array(this.#hash.digest()) };
    await this.#writer.ready;
    await this.#writer.write(frameBytes(end));
    await this.#writer.close();
    await this.#piped;
  }

  /** Gives up: closes the file without an `end` frame (the partial file is then removed). */
  async abort(): Promise<void> {
    await this.#writer.abort().catch(() => {});
    await this.#piped.catch(() => {});
  }
}

function frameBytes(frame: Frame): Uint8Array<ArrayBuffer> {
  const payload = packr.pack(frame);
  const bytes = new Uint8Array(4 + payload.length);
  new DataView(bytes.buffer).setUint32(0, payload.length);
  bytes.set(payload, 4);
  return bytes;
}

/**
 * Streams the frames of the backup at `path`, verified: a chunk whose body does not match its
 * SHA-256, a chunk out of sequence, an unknown frame, a damaged gzip stream, a missing `end`
 * or an `end` whose hash differs all throw a `BackupError` naming the place. The `end` frame
 * is yielded last, after its hash was checked.
 */
export async function* readFrames(path: string): AsyncGenerator<Frame> {
  const file = await Deno.open(path, { read: true });
  const kind: EnvelopeKind = {};
  const stream = file.readable.pipeThrough(unsealing(kind)).pipeThrough(new DecompressionStream("gzip"));
  const bytes = new ByteQueue(stream.getReader());
  const hash = createHash("sha256");
  let index = 0;
  let nextChunk = 0;
  try {
    while (true) {
      const prefix = await bytes.take(4, index === 0 ? "the header" : "an end frame");
      const length = new DataView(prefix.buffer, prefix.byteOffset, 4).getUint32(0);
      if (length > MAX_FRAME_BYTES) throw new BackupError(`Frame ${index} claims ${length} bytes: the file is damaged`);
      const payload = await bytes.take(length, `frame ${index}`);
      const frame = parseFrame(payload, index);
      if (index === 0 && frame.t !== "header") throw new BackupError("Not a Balcão backup: it does not start with a header");
      if (frame.t === "header" && (frame.format >= 2) !== (kind.envelope === 2)) {
        throw new BackupError(`The backup's header says format ${frame.format} but its envelope is format ${kind.envelope}: the file is damaged`);
      }
      if (frame.t === "end") {
        if (!equalBytes(new Uint8Array(hash.digest()), frame.sha256)) {
          throw new BackupError("The backup's overall SHA-256 does not match its content: the file is damaged");
        }
        if (!await bytes.atEnd()) throw new BackupError("Data follows the end frame: the file is damaged");
        yield frame;
        return;
      }
      hash.update(prefix);
      hash.update(payload);
      if (frame.t === "chunk") {
        if (frame.n !== nextChunk) throw new BackupError(`Chunk ${nextChunk} is missing (found chunk ${frame.n})`);
        if (!equalBytes(sha256(frame.body), frame.sha256)) {
          throw new BackupError(`Chunk ${frame.n} (${frame.kind}) does not match its SHA-256: the file is damaged`);
        }
        nextChunk++;
      }
      index++;
      yield frame;
    }
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(`The backup cannot be read at frame ${index}: ${(error as Error).message}`, { cause: error });
  } finally {
    await bytes.cancel();
  }
}

function parseFrame(payload: Uint8Array, index: number): Frame {
  let raw: unknown;
  try {
    raw = packr.unpack(payload);
  } catch (error) {
    throw new BackupError(`Frame ${index} is not msgpack: the file is damaged`, { cause: error });
  }
  const parsed = Frame.safeParse(raw);
  if (!parsed.success) throw new BackupError(`Frame ${index} is not a backup frame: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}

/** Exact-length reads over a byte stream's reader. */
class ByteQueue {
  #pieces: Uint8Array[] = [];
  #buffered = 0;
  #done = false;
  constructor(readonly reader: ReadableStreamDefaultReader<Uint8Array>) {}

  async take(n: number, what: string): Promise<Uint8Array> {
    while (this.#buffered < n) {
      if (this.#done || !await this.#pull()) {
        throw new BackupError(`The backup ends before ${what}: the file is truncated`);
      }
    }
    const out = new Uint8Array(n);
    let filled = 0;
    while (filled < n) {
      const head = this.#pieces[0];
      const used = Math.min(head.length, n - filled);
      out.set(head.subarray(0, used), filled);
      filled += used;
      if (used === head.length) this.#pieces.shift();
      else this.#pieces[0] = head.subarray(used);
    }
    this.#buffered -= n;
    return out;
  }

  async atEnd(): Promise<boolean> {
    while (this.#buffered === 0 && !this.#done) await this.#pull();
    return this.#buffered === 0;
  }

  async cancel(): Promise<void> {
    await this.reader.cancel().catch(() => {});
  }

  async #pull(): Promise<boolean> {
    const { value, done } = await this.reader.read();
    if (done) {
      this.#done = true;
      return false;
    }
    this.#pieces.push(value);
    this.#buffered += value.length;
    return true;
  }
}
