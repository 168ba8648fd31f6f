/**
 * A minimal WebSocket client over a raw TCP connection, for load generation: a load
 * generator sharing the cores with the server it measures should cost as little as it can.
 * Deno's `WebSocket` class pays an op, a promise, a MessageEvent and an event dispatch per
 * received message; this one pays one read per batch of bytes the kernel has (one or more
 * frames) and one call per message.
 *
 * It is still a real WebSocket: an HTTP/1.1 upgrade with a checked Sec-WebSocket-Accept,
 * masked client frames, fragmented messages reassembled, protocol pings answered, close
 * frames answered and reported. No extensions (permessage-deflate) and no TLS: loopback only.
 */
import { encodeClientFrame, FrameReader, OPCODE } from "./ws_frames.ts";

/** What the owner of a socket is told. */
export interface WsHandlers {
  /**
   * A whole message: text as a string, binary as bytes (a view valid only during the call).
   * `at` is when its bytes were read (ms since the epoch, performance clock).
   */
  onMessage(data: string | Uint8Array, at: number): void;
  /** The connection ended: the server's close code and reason, or 1006 without a close frame. */
  onClose(code: number, reason: string): void;
}

const GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
const READ_BYTES = 64 * 1024;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** What a bench needs of a client socket, whichever class opened it. */
export interface ClientSocket {
  /** Settles once the server accepted the upgrade. */
  readonly opened: Promise<void>;
  send(text: string): void;
  close(): void;
}

/** One client socket; like the browser's, usable at once, frames sent early wait for the upgrade. */
export class WsClient implements ClientSocket {
  /** Settles once the server accepted the upgrade; rejects when it did not. */
  readonly opened: Promise<void>;
  #conn?: Deno.TcpConn;
  #handlers: WsHandlers;
  #reader = new FrameReader();
  #writing: Promise<void>;
  /** Parts of a fragmented message, and its opcode. */
  #fragments: Uint8Array[] = [];
  #fragmentOpcode = 0;
  #closed = false;

  /** Opens `url` (ws://host:port/path?query). */
  constructor(url: string, handlers: WsHandlers) {
    this.#handlers = handlers;
    this.opened = this.#open(new URL(url));
    this.#writing = this.opened.catch(() => {});
  }

  async #open(target: URL): Promise<void> {
    if (target.protocol !== "ws:") throw new Error(`Only ws: URLs are supported, not ${target.protocol}`);
    const conn = this.#conn = await Deno.connect({ hostname: target.hostname, port: Number(target.port || 80) });
    conn.setNoDelay(true);
    const key = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
    await writeAll(
      conn,
      encoder.encode(
        `GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nUpgrade: websocket\r\n` +
          `Connection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      ),
    );
    const { head, rest } = await readHead(conn);
    const status = head.slice(0, head.indexOf("\r\n"));
    if (!/^HTTP\/1\.1 101\b/.test(status)) {
      conn.close();
      throw new Error(`WebSocket upgrade of ${target.pathname} refused: ${status}`);
    }
    const accept = head.match(/\r\nsec-websocket-accept:\s*(\S+)/i)?.[1];
    const digest = await crypto.subtle.digest("SHA-1", encoder.encode(key + GUID));
    if (accept !== btoa(String.fromCharCode(...new Uint8Array(digest)))) {
      conn.close();
      throw new Error("WebSocket upgrade answered with a wrong Sec-WebSocket-Accept");
    }
    void this.#readLoop(conn, rest);
  }

  /** Sends a text message. */
  send(text: string): void {
    this.#write(encodeClientFrame(OPCODE.text, encoder.encode(text)));
  }

  /** Sends a close frame and ends the connection once it is written. */
  close(code = 1000): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#write(encodeClientFrame(OPCODE.close, new Uint8Array([code >> 8, code & 0xff])));
    this.#end();
  }

  /** Closes the TCP connection after the frames already queued are written. */
  #end(): void {
    this.#writing = this.#writing.then(() => {
      try {
        this.#conn?.close();
      } catch { /* already closed */ }
    });
  }

  /** Writes frames in order, each whole. */
  #write(frame: Uint8Array): void {
    this.#writing = this.#writing.then(() => writeAll(this.#conn!, frame)).catch(() => {});
  }

  async #readLoop(conn: Deno.TcpConn, first: Uint8Array): Promise<void> {
    const buffer = new Uint8Array(READ_BYTES);
    let code = 1006;
    let reason = "";
    try {
      let chunk = first;
      for (;;) {
        if (chunk.length > 0) {
          const at = performance.timeOrigin + performance.now();
          for (const frame of this.#reader.push(chunk)) {
            const { opcode, payload } = frame;
            if (opcode === OPCODE.close) {
              code = payload.length >= 2 ? (payload[0] << 8) | payload[1] : 1005;
              reason = decoder.decode(payload.subarray(2));
              if (!this.#closed) this.close(code === 1005 ? 1000 : code);
              return;
            }
            if (opcode === OPCODE.ping) this.#write(encodeClientFrame(OPCODE.pong, payload.slice()));
            else if (opcode === OPCODE.pong) continue;
            else if (!frame.fin || opcode === OPCODE.continuation) this.#fragment(frame.fin, opcode, payload, at);
            else this.#deliver(opcode, payload, at);
          }
        }
        const n = await conn.read(buffer);
        if (n === null) return;
        chunk = buffer.subarray(0, n);
      }
    } catch (error) {
      if (!this.#closed) reason = error instanceof Error ? error.message : String(error);
    } finally {
      if (!this.#closed) {
        this.#closed = true;
        this.#end();
      }
      this.#handlers.onClose(code, reason);
    }
  }

  #fragment(fin: boolean, opcode: number, payload: Uint8Array, at: number): void {
    if (opcode !== OPCODE.continuation) this.#fragmentOpcode = opcode;
    this.#fragments.push(payload.slice());
    if (!fin) return;
    const whole = new Uint8Array(this.#fragments.reduce((n, part) => n + part.length, 0));
    let offset = 0;
    for (const part of this.#fragments) {
      whole.set(part, offset);
      offset += part.length;
    }
    this.#fragments = [];
    this.#deliver(this.#fragmentOpcode, whole, at);
  }

  #deliver(opcode: number, payload: Uint8Array, at: number): void {
    this.#handlers.onMessage(opcode === OPCODE.text ? decoder.decode(payload) : payload, at);
  }
}

/** The same interface over Deno's `WebSocket` class, to compare the two clients. */
export function denoWebSocket(url: string, handlers: WsHandlers): ClientSocket {
  const ws = new WebSocket(url);
  ws.binaryType = "arraybuffer";
  ws.onmessage = (e) =>
    handlers.onMessage(typeof e.data === "string" ? e.data : new Uint8Array(e.data), performance.timeOrigin + performance.now());
  ws.onclose = (e) => handlers.onClose(e.code, e.reason);
  const opened = new Promise<void>((resolve, reject) => {
    ws.onopen = () => resolve();
    ws.onerror = () => reject(new Error(`WebSocket ${url} failed`));
  });
  opened.catch(() => {});
  return { opened, send: (text) => ws.send(text), close: () => ws.close() };
}

/** Writes all of `bytes` (a write may take only part of them). */
async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  for (let done = 0; done < bytes.length;) done += await conn.write(bytes.subarray(done));
}

/** Reads the HTTP response head; `rest` holds the bytes after it (the first frames, if any). */
async function readHead(conn: Deno.Conn): Promise<{ head: string; rest: Uint8Array }> {
  const buffer = new Uint8Array(4096);
  let length = 0;
  for (;;) {
    if (length === buffer.length) throw new Error("WebSocket upgrade response head too long");
    const n = await conn.read(buffer.subarray(length));
    if (n === null) throw new Error("Connection closed during the WebSocket upgrade");
    length += n;
    const end = findHeadEnd(buffer.subarray(0, length));
    if (end >= 0) {
      return { head: decoder.decode(buffer.subarray(0, end)), rest: buffer.slice(end + 4, length) };
    }
  }
}

/** Index of the blank line (\r\n\r\n) ending an HTTP head, or -1. */
function findHeadEnd(bytes: Uint8Array): number {
  for (let i = 0; i + 3 < bytes.length; i++) {
    if (bytes[i] === 13 && bytes[i + 1] === 10 && bytes[i + 2] === 13 && bytes[i + 3] === 10) return i;
  }
  return -1;
}
