/**
 * One client socket of the hub: its format, who it is once authenticated, what it joined,
 * and the encoding of frames. Event frames are encoded once per backlog entry and format and
 * shared by every recipient.
 *
 * Events are queued and flushed by the hub (flusher.ts): a lone event goes out as its own
 * frame at once (a microtask later), while a burst (a group commit's events, a bulk action)
 * or a steady stream (one flush per `flushWindowMs`, see hub.ts) reaches each socket as one
 * array.
 * Per-message cost, not bytes, limits fan-out, so batching is what keeps a busy server's
 * latency bounded.
 */
import { pack, unpack } from "msgpackr";
import { ClientFrame, type ControlFrame } from "../../domain/realtime.ts";
import type { Principal } from "../../domain/permissions.ts";
import type { SocketAuth } from "./auth.ts";
import type { BacklogEntry } from "./backlog.ts";
import { type Interest, noInterest } from "./routing.ts";

/** Most events one batched WebSocket message carries. */
export const MAX_BATCH = 256;

/** What the hub's sockets were sent since it started (issue #40's metrics; plain counts). */
export interface SocketTraffic {
  /** WebSocket messages: an event, a batch of events, or a control frame. */
  messages: number;
  /** Event frames, counted one per event even when batched into one message. */
  events: number;
}

/** What a connection needs from the hub. */
export interface ConnectionHost {
  /** Where each send is counted (an increment per WebSocket message). */
  readonly sent: SocketTraffic;
  /** Unsent bytes above which the socket is given up (it resumes when it reconnects). */
  maxBufferedBytes(): number;
  /** The socket overflowed its buffer; the hub closes and forgets it. */
  overflow(conn: Connection): void;
  /** The socket's queue went from empty to non-empty; the hub schedules a flush. */
  queued(conn: Connection): void;
}

/** Wire format chosen at connect (`?format=`). */
export type WireFormat = "json" | "msgpack";

/** The JSON text of an entry's frame, encoded once. */
export function entryJson(entry: BacklogEntry): string {
  return entry.json ??= JSON.stringify({
    channel: entry.event.channel,
    seq: entry.seq,
    data: entry.event.data,
  });
}

/** The msgpack bytes of an entry's frame, encoded once. */
export function entryPacked(entry: BacklogEntry): Uint8Array {
  return entry.packed ??= pack({ channel: entry.event.channel, seq: entry.seq, data: entry.event.data });
}

/** A msgpack array of the entries' frames, built from each entry's cached bytes. */
function packedArray(entries: BacklogEntry[]): Uint8Array {
  const parts = entries.map(entryPacked);
  const n = entries.length;
  const header = n < 16 ? [0x90 | n] : [0xdc, n >> 8, n & 0xff];
  const out = new Uint8Array(header.length + parts.reduce((sum, p) => sum + p.length, 0));
  out.set(header, 0);
  let offset = header.length;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** Decodes a client frame: JSON text, or msgpack bytes; undefined when it is not one. */
export function decodeFrame(data: unknown): ClientFrame | undefined {
  let raw: unknown;
  try {
    if (typeof data === "string") raw = JSON.parse(data);
    else if (data instanceof ArrayBuffer) raw = unpack(new Uint8Array(data));
    else if (data instanceof Uint8Array) raw = unpack(data);
    else return undefined;
  } catch {
    return undefined;
  }
  const parsed = ClientFrame.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}

/** A socket of the hub. */
export class Connection {
  /** Set once the token is verified and the socket joined its company's room. */
  principal?: Principal;
  interest: Interest = noInterest();
  /** The company seq when the socket went live; events after it are delivered live. */
  startSeq = 0;
  /** Time of the last frame from the client (ms). */
  lastSeen = Date.now();
  /** Whether the client said it is away (`userStatus` offline): it does not count as online. */
  away = false;
  resumed = false;
  /** Set once a close was asked for (by us). */
  closed = false;
  /** Set once the hub forgot the socket. */
  detached = false;
  /** Frames received while the token was being checked, handled in order afterwards. */
  pending: ClientFrame[] = [];
  authenticating = false;
  /** Closes a socket that never sends its auth frame. */
  authTimer?: ReturnType<typeof setTimeout>;
  /** The user's `tokenVersion` when the socket authenticated; a higher one revokes it. */
  tokenVersion = 0;
  /** Closes the socket when its access token expires. */
  expiryTimer?: ReturnType<typeof setTimeout>;
  /** When queued events were last sent (performance.now()); the hub's flush window counts from it. */
  lastFlushAt = -Infinity;

  #queue: BacklogEntry[] = [];

  constructor(
    readonly socket: WebSocket,
    readonly format: WireFormat,
    /** Verifies a token (bound to the app's deps by the route). */
    readonly authenticate: (token: string) => Promise<SocketAuth>,
    readonly host: ConnectionHost,
  ) {
    socket.binaryType = "arraybuffer";
  }

  /** Whether frames can be sent now. */
  get open(): boolean {
    return !this.closed && this.socket.readyState === WebSocket.OPEN;
  }

  /** Queues an event frame; the host flushes queued frames once the current burst ends. */
  sendEntry(entry: BacklogEntry): void {
    if (this.closed) return;
    this.#queue.push(entry);
    if (this.#queue.length === 1) this.host.queued(this);
  }

  /**
   * Sends the queued events: one frame when there is one, else arrays of up to
   * `MAX_BATCH` frames in seq order (one WebSocket message per array).
   */
  flush(): void {
    const queue = this.#queue;
    if (queue.length === 0) return;
    this.#queue = [];
    this.lastFlushAt = performance.now();
    if (!this.open) return;
    const sent = this.host.sent;
    sent.events += queue.length;
    for (let i = 0; i < queue.length; i += MAX_BATCH) {
      sent.messages++;
      const batch = queue.slice(i, i + MAX_BATCH);
      if (this.format === "msgpack") {
        this.socket.send(batch.length === 1 ? entryPacked(batch[0]) : packedArray(batch));
      } else {
        this.socket.send(batch.length === 1 ? entryJson(batch[0]) : `[${batch.map(entryJson).join(",")}]`);
      }
    }
    if (this.socket.bufferedAmount > this.host.maxBufferedBytes()) this.host.overflow(this);
  }

  /** Sends one control frame, after the events queued before it. */
  sendControl(frame: ControlFrame): void {
    this.flush();
    if (!this.open) return;
    this.host.sent.messages++;
    this.socket.send(this.format === "msgpack" ? pack(frame) : JSON.stringify(frame));
  }

  /** Closes the socket with a code of domain/realtime.ts CLOSE (idempotent). */
  close(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.socket.close(code, reason);
    } catch { /* already closing */ }
  }
}
