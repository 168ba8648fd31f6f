/**
 * A minimal HTTP/1.1 keep-alive client for load generation over loopback.
 *
 * Why not `fetch`: a load generator that shares two cores with the server must cost little,
 * or the figures measure the client. Deno's `fetch` spends ~60–100 µs of CPU per request
 * (Request/Response objects, header maps, the hyper client and its pool); this client writes
 * the request bytes on its own socket and reads the response by `Content-Length` (or chunked
 * framing), a few µs each. It is still real HTTP on a real TCP connection: the server cannot
 * tell it from any other client. One request at a time per connection (no pipelining), as a
 * browser's keep-alive connection does.
 */
import { concatBytes } from "./bytes.ts";

const encoder = new TextEncoder();
const CRLF_CRLF = [13, 10, 13, 10];

/**
 * What a load generator needs of a response: its status and body. The body is a view of the
 * connection's read buffer, valid until the connection's next request (copy it to keep it):
 * copying every body would make the client allocate, and collect, a buffer per request.
 */
export interface HttpReply {
  status: number;
  body: Uint8Array;
}

/** One keep-alive connection to `host:port`. */
export class HttpConnection {
  #conn: Deno.TcpConn;
  #host: string;
  #buffer = new Uint8Array(64 * 1024);
  /** The request being written, reused (`encodeInto`) so a request allocates no buffer. */
  #out = new Uint8Array(4 * 1024);
  /** Bytes in `#buffer` not consumed yet: `#buffer[#start, #end)`. */
  #start = 0;
  #end = 0;

  private constructor(conn: Deno.TcpConn, host: string) {
    this.#conn = conn;
    this.#host = host;
  }

  /** Opens the connection (Nagle off: requests are small and latency-bound). */
  static async open(hostname: string, port: number): Promise<HttpConnection> {
    const conn = await Deno.connect({ hostname, port });
    conn.setNoDelay(true);
    return new HttpConnection(conn, `${hostname}:${port}`);
  }

  /** Sends one request and reads its whole response. */
  async request(
    method: string,
    path: string,
    headers: Record<string, string> = {},
    body?: string,
  ): Promise<HttpReply> {
    const payload = body === undefined ? undefined : encoder.encode(body);
    let head = `${method} ${path} HTTP/1.1\r\nhost: ${this.#host}\r\n`;
    for (const name in headers) head += `${name}: ${headers[name]}\r\n`;
    if (payload) head += `content-length: ${payload.byteLength}\r\n`;
    head += "\r\n";
    if (head.length * 3 > this.#out.length) this.#out = new Uint8Array(head.length * 3);
    const { written } = encoder.encodeInto(head, this.#out);
    await writeAll(this.#conn, this.#out.subarray(0, written));
    if (payload) await writeAll(this.#conn, payload);
    return await this.#readResponse();
  }

  close(): void {
    try {
      this.#conn.close();
    } catch {
      // already closed by the peer
    }
  }

  async #readResponse(): Promise<HttpReply> {
    let headEnd = -1;
    while ((headEnd = indexOf(this.#buffer, CRLF_CRLF, this.#start, this.#end)) < 0) await this.#fill();
    const head = latin1(this.#buffer, this.#start, headEnd);
    this.#start = headEnd + 4;
    const status = Number(head.slice(9, 12));
    const length = head.match(/\r\ncontent-length:\s*(\d+)/i);
    if (length) return { status, body: await this.#take(Number(length[1])) };
    if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) return { status, body: await this.#chunked() };
    return { status, body: new Uint8Array() }; // 204/304 or a body-less answer
  }

  /** Reads chunked framing until the last chunk; the body is the chunks joined. */
  async #chunked(): Promise<Uint8Array> {
    const parts: Uint8Array[] = [];
    for (;;) {
      let lineEnd = -1;
      while ((lineEnd = indexOf(this.#buffer, [13, 10], this.#start, this.#end)) < 0) await this.#fill();
      const size = parseInt(latin1(this.#buffer, this.#start, lineEnd), 16);
      this.#start = lineEnd + 2;
      const chunk = await this.#take(size + 2); // the chunk and its CRLF
      if (size === 0) return concatBytes(parts);
      parts.push(chunk.slice(0, size)); // a copy: the next read may reuse the buffer
    }
  }

  /** The next `n` bytes, reading more as needed (a view of the buffer; see HttpReply). */
  async #take(n: number): Promise<Uint8Array> {
    while (this.#end - this.#start < n) await this.#fill(n);
    const out = this.#buffer.subarray(this.#start, this.#start + n);
    this.#start += n;
    return out;
  }

  /** Reads from the socket into the buffer, compacting or growing it to fit `need` bytes. */
  async #fill(need = 0): Promise<void> {
    if (this.#start > 0 && this.#start === this.#end) this.#start = this.#end = 0;
    const want = Math.max(need, this.#end - this.#start + 16 * 1024);
    if (this.#start + want > this.#buffer.length) {
      const bigger = want > this.#buffer.length ? new Uint8Array(want * 2) : this.#buffer;
      bigger.set(this.#buffer.subarray(this.#start, this.#end));
      this.#end -= this.#start;
      this.#start = 0;
      this.#buffer = bigger;
    }
    const n = await this.#conn.read(this.#buffer.subarray(this.#end));
    if (n === null) throw new Error("Connection closed by the server");
    this.#end += n;
  }
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  for (let off = 0; off < bytes.length;) off += await conn.write(bytes.subarray(off));
}

/** Index of `needle` in `hay[from, to)`, or -1. */
function indexOf(hay: Uint8Array, needle: number[], from: number, to: number): number {
  const first = needle[0];
  for (let i = hay.indexOf(first, from); i >= 0 && i + needle.length <= to; i = hay.indexOf(first, i + 1)) {
    let k = 1;
    while (k < needle.length && hay[i + k] === needle[k]) k++;
    if (k === needle.length) return i;
  }
  return -1;
}

function latin1(bytes: Uint8Array, from: number, to: number): string {
  return String.fromCharCode.apply(null, bytes.subarray(from, to) as unknown as number[]);
}
