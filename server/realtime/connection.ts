/**
 * One client socket of the hub: its format, who it is once authenticated, what it joined,
 * and the encoding of frames. Event frames are encoded once per backlog entry and format and
 * shared by every recipient.
 */
import { pack, unpack } from "msgpackr";
import { ClientFrame, type ControlFrame } from "../../domain/realtime.ts";
import type { Principal } from "../../domain/permissions.ts";
import type { SocketAuth } from "./auth.ts";
import type { BacklogEntry } from "./backlog.ts";
import { type Interest, noInterest } from "./routing.ts";

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

  constructor(
    readonly socket: WebSocket,
    readonly format: WireFormat,
    /** Verifies a token (bound to the app's deps by the route). */
    readonly authenticate: (token: string) => Promise<SocketAuth>,
    readonly maxBufferedBytes: () => number,
    /** Called when the socket overflows its buffer; the hub closes and forgets it. */
    readonly onOverflow: (conn: Connection) => void,
  ) {
    socket.binaryType = "arraybuffer";
  }

  /** Whether frames can be sent now. */
  get open(): boolean {
    return !this.closed && this.socket.readyState === WebSocket.OPEN;
  }

  /** Sends one event frame. */
  sendEntry(entry: BacklogEntry): void {
    if (!this.open) return;
    this.socket.send(this.format === "msgpack" ? entryPacked(entry) : entryJson(entry));
    if (this.socket.bufferedAmount > this.maxBufferedBytes()) this.onOverflow(this);
  }

  /** Sends one control frame. */
  sendControl(frame: ControlFrame): void {
    if (!this.open) return;
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
