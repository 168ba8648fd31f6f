/**
 * A small WebSocket client for the realtime tests: connects to a test server's `/ws`, decodes
 * JSON or msgpack frames, answers pings, and lets a test await a frame or the close.
 * A `SocketPool` closes every socket it opened, so no test leaks a socket.
 */
import { pack, unpack } from "msgpackr";
import type { BusEvent } from "../../domain/events.ts";
import type { ControlFrame, EventFrame, ServerFrame, ServerMessage } from "../../domain/realtime.ts";
import type { Profile, User } from "../../domain/user.ts";
import { createCompany, createUser } from "../../actors/platform/commands.ts";
import { hashPassword } from "../../server/auth/passwords.ts";
import { signAccess } from "../../server/auth/tokens.ts";
import type { RunningServer } from "../../server/start.ts";
import type { Config } from "../../server/config.ts";
import { type TestServer, withServer } from "./server.ts";

/** How to connect. */
export interface WsOptions {
  /** Sent as `?token=`. */
  token?: string;
  /** Sent as the first frame `{ type: "auth", token }` instead of the query. */
  authFrame?: string;
  format?: "json" | "msgpack";
  lastSeq?: number;
  /** Answer `ping` frames with `pong` (default true). */
  autoPong?: boolean;
}

/** How a socket ended. */
export interface WsClosed {
  code: number;
  reason: string;
}

/** Whether a frame is an event (not a control frame). */
export function isEvent(frame: ServerFrame): frame is EventFrame {
  return !("type" in frame);
}

/** One test socket. */
export class WsClient {
  /** Every frame received, batches unpacked, in order. */
  readonly frames: ServerFrame[] = [];
  /** WebSocket messages received (a batch counts once). */
  messages = 0;
  /** Sizes of the batched messages received. */
  readonly batches: number[] = [];
  readonly opened: Promise<void>;
  readonly closed: Promise<WsClosed>;
  #waiters: Array<() => void> = [];
  #socket: WebSocket;

  constructor(baseUrl: string, readonly options: WsOptions = {}) {
    const url = new URL("/ws", baseUrl.replace(/^http/, "ws"));
    if (options.token) url.searchParams.set("token", options.token);
    if (options.format) url.searchParams.set("format", options.format);
    if (options.lastSeq !== undefined) url.searchParams.set("lastSeq", String(options.lastSeq));
    const socket = this.#socket = new WebSocket(url);
    socket.binaryType = "arraybuffer";
    const opened = Promise.withResolvers<void>();
    const closed = Promise.withResolvers<WsClosed>();
    this.opened = opened.promise;
    this.closed = closed.promise;
    socket.onopen = () => {
      if (options.authFrame) this.send({ type: "auth", token: options.authFrame });
      opened.resolve();
    };
    socket.onerror = () => opened.resolve();
    socket.onclose = (event) => {
      opened.resolve();
      closed.resolve({ code: event.code, reason: event.reason });
      this.#wake();
    };
    socket.onmessage = (event) => {
      if (typeof event.data !== "string") this.binaryCount++;
      const message = (typeof event.data === "string"
        ? JSON.parse(event.data)
        : unpack(new Uint8Array(event.data as ArrayBuffer))) as ServerMessage;
      this.messages++;
      if (Array.isArray(message)) {
        this.batches.push(message.length);
        this.frames.push(...message);
      } else {
        this.frames.push(message);
        if (!isEvent(message) && message.type === "ping" && options.autoPong !== false) {
          this.send({ type: "pong" });
        }
      }
      this.#wake();
    };
  }

  /** Whether the socket is still open. */
  get isOpen(): boolean {
    return this.#socket.readyState === WebSocket.OPEN;
  }

  /** How many messages arrived as binary (msgpack) messages. */
  binaryCount = 0;

  /** Sends a client frame in the socket's format. */
  send(frame: unknown): void {
    if (this.#socket.readyState !== WebSocket.OPEN) return;
    this.#socket.send(this.options.format === "msgpack" ? pack(frame) : JSON.stringify(frame));
  }

  /** Sends raw text or bytes (to test malformed frames). */
  sendRaw(data: string | Uint8Array): void {
    this.#socket.send(data);
  }

  /** The event frames received so far, in order. */
  events(): EventFrame[] {
    return this.frames.filter(isEvent);
  }

  /** Event frames of one channel. */
  eventsOn(channel: string): EventFrame[] {
    return this.events().filter((e) => e.channel === channel);
  }

  /** Waits for the first frame (from index `from`) matching `match`; fails after `timeoutMs`. */
  async until(
    match: (frame: ServerFrame) => boolean,
    timeoutMs = 10_000,
    from = 0,
  ): Promise<ServerFrame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.frames.slice(from).find(match);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0 || this.#socket.readyState === WebSocket.CLOSED) {
        throw new Error(`No matching frame within ${timeoutMs} ms; got ${JSON.stringify(this.frames.slice(-5))}`);
      }
      const { promise, resolve } = Promise.withResolvers<void>();
      const timer = setTimeout(resolve, left);
      this.#waiters.push(resolve);
      await promise;
      clearTimeout(timer);
    }
  }

  /** Waits for a control frame of `type`. */
  control<T extends ControlFrame["type"]>(type: T, timeoutMs?: number) {
    return this.until((f) => !isEvent(f) && f.type === type, timeoutMs) as Promise<
      Extract<ControlFrame, { type: T }>
    >;
  }

  /** Waits for the hello frame (authentication done). */
  hello(): Promise<Extract<ControlFrame, { type: "hello" }>> {
    return this.control("hello");
  }

  /** Waits for an event on `channel` whose data matches `match`. */
  event(channel: string, match: (data: Record<string, unknown>) => boolean = () => true) {
    return this.until(
      (f) => isEvent(f) && f.channel === channel && match(f.data as Record<string, unknown>),
    ) as Promise<EventFrame>;
  }

  /** Closes from the client side and waits for the close to finish. */
  async close(): Promise<WsClosed> {
    if (this.#socket.readyState === WebSocket.CONNECTING) await this.opened;
    if (this.#socket.readyState === WebSocket.OPEN) this.#socket.close(1000, "bye");
    return await this.closed;
  }

  #wake(): void {
    for (const wake of this.#waiters.splice(0)) wake();
  }
}

/** Opens sockets against one server and closes them all at the end of a test. */
export class SocketPool {
  readonly #clients: WsClient[] = [];
  constructor(readonly baseUrl: string) {}

  /** Opens a socket (does not wait for authentication; use `hello()`). */
  open(options: WsOptions): WsClient {
    const client = new WsClient(this.baseUrl, options);
    this.#clients.push(client);
    return client;
  }

  /** Opens a socket with `token` and waits for its hello. */
  async connect(token: string, options: Omit<WsOptions, "token"> = {}): Promise<WsClient> {
    const client = this.open({ ...options, token });
    await client.hello();
    return client;
  }

  /** Closes every socket opened here. */
  async closeAll(): Promise<void> {
    await Promise.all(this.#clients.map((c) => c.close()));
  }
}

/** A company-wide marker event: once a socket has it, it has every earlier event too. */
export function markerEvent(companyId: number | null, tag: string): BusEvent {
  return {
    companyId,
    channel: companyId === null ? "test-marker" : `company-${companyId}-test-marker`,
    data: { tag },
    scope: { kind: "company" },
  };
}

/** White-box fixtures the realtime tests share: extra companies, users and their tokens. */
export const fixtures = {
  /** A company with an active subscription (optionally already expired). */
  async company(server: RunningServer, name: string, dueDate = Date.now() + 30 * 86_400_000) {
    return await createCompany(server.deps.system, { name, email: `${name}@test.local`, dueDate });
  },
  /** A user of `companyId` (password demo1234). */
  async user(
    server: RunningServer,
    input: { companyId: number; email: string; profile?: Profile; queueIds?: number[] },
  ): Promise<User> {
    return await createUser(server.deps.system, {
      companyId: input.companyId,
      name: input.email.split("@")[0],
      email: input.email,
      passwordHash: await hashPassword("demo1234", "fast"),
      profile: input.profile ?? "user",
      queueIds: input.queueIds ?? [],
    });
  },
  /** An access token for `user`, as login would issue it (ttl in seconds; negative = expired). */
  token(
    server: RunningServer,
    user: Pick<User, "id" | "companyId">,
    options: { ttl?: number; scope?: "full" | "billing" } = {},
  ): Promise<string> {
    return signAccess(
      server.deps.secret,
      {
        id: user.id,
        companyId: user.companyId,
        scope: options.scope ?? "full",
        tokenVersion: (user as Partial<Pick<User, "tokenVersion">>).tokenVersion ?? 0,
      },
      options.ttl ?? 900,
      Date.now(),
    );
  },
};

/**
 * Runs `fn` on a fresh test server (with `overrides`) and a SocketPool on it; the pool's
 * sockets are closed first, then the server, whatever happens.
 */
export async function withSockets(
  fn: (server: TestServer, pool: SocketPool) => Promise<void>,
  overrides: Partial<Config> = {},
): Promise<void> {
  await withServer(async (server) => {
    const pool = new SocketPool(server.url);
    try {
      await fn(server, pool);
    } finally {
      await pool.closeAll();
    }
  }, overrides);
}
