/**
 * WebSocket framing (RFC 6455 §5) for the bench's load-generating client: splits the byte
 * stream a server sends into frames, and encodes the masked frames a client must send. Pure,
 * so the parser is tested without sockets (ws_frames_test.ts).
 */

/** Frame opcodes (RFC 6455 §5.2). */
export const OPCODE = {
  continuation: 0x0,
  text: 0x1,
  binary: 0x2,
  close: 0x8,
  ping: 0x9,
  pong: 0xa,
} as const;

/** One frame as received. */
export interface Frame {
  fin: boolean;
  opcode: number;
  /** A view into the reader's bytes: valid until the next `push`. */
  payload: Uint8Array;
}

const EMPTY = new Uint8Array(0);

/**
 * Cuts a server's byte stream into frames: a read may hold several frames, and a frame may
 * be split over several reads (its head included), so an unfinished tail is kept for the next
 * read. Server frames are never masked (§5.1); a masked one is a protocol error.
 */
export class FrameReader {
  #rest: Uint8Array = EMPTY;

  /** Bytes of an unfinished frame waiting for the next read. */
  get pending(): number {
    return this.#rest.length;
  }

  /**
   * Feeds the bytes of one read (the caller may reuse `chunk` afterwards) and returns the
   * frames they complete, in order.
   */
  push(chunk: Uint8Array): Frame[] {
    let data = chunk;
    if (this.#rest.length > 0) {
      data = new Uint8Array(this.#rest.length + chunk.length);
      data.set(this.#rest, 0);
      data.set(chunk, this.#rest.length);
    }
    const frames: Frame[] = [];
    let pos = 0;
    for (;;) {
      const available = data.length - pos;
      if (available < 2) break;
      const b0 = data[pos];
      const b1 = data[pos + 1];
      if (b1 & 0x80) throw new Error("Protocol error: the server sent a masked frame");
      let length = b1 & 0x7f;
      let head = 2;
      if (length === 126) {
        if (available < 4) break;
        length = (data[pos + 2] << 8) | data[pos + 3];
        head = 4;
      } else if (length === 127) {
        if (available < 10) break;
        const view = new DataView(data.buffer, data.byteOffset + pos + 2, 8);
        length = view.getUint32(0) * 2 ** 32 + view.getUint32(4);
        head = 10;
      }
      if (available < head + length) break;
      frames.push({ fin: (b0 & 0x80) !== 0, opcode: b0 & 0x0f, payload: data.subarray(pos + head, pos + head + length) });
      pos += head + length;
    }
    // The tail is copied: `chunk` is the caller's read buffer and is overwritten next read.
    this.#rest = pos === data.length ? EMPTY : data.slice(pos);
    // Complete frames may view `chunk` too, which stays valid until the caller's next read.
    return frames;
  }
}

/** A client frame (final, masked with a random key as §5.3 requires) of `payload`. */
export function encodeClientFrame(opcode: number, payload: Uint8Array): Uint8Array {
  const length = payload.length;
  const head = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const out = new Uint8Array(head + 4 + length);
  out[0] = 0x80 | opcode;
  if (head === 2) out[1] = 0x80 | length;
  else if (head === 4) {
    out[1] = 0x80 | 126;
    out[2] = length >> 8;
    out[3] = length & 0xff;
  } else {
    out[1] = 0x80 | 127;
    const view = new DataView(out.buffer, 2, 8);
    view.setUint32(0, Math.floor(length / 2 ** 32));
    view.setUint32(4, length >>> 0);
  }
  const mask = crypto.getRandomValues(new Uint8Array(4));
  out.set(mask, head);
  for (let i = 0; i < length; i++) out[head + 4 + i] = payload[i] ^ mask[i & 3];
  return out;
}
