/**
 * The WebSocket hub (DESIGN §5, issue #5): one per server, hung off `deps.hub`. It listens
 * to the event bus, numbers each company's events, keeps a bounded backlog for resuming,
 * and sends every event to the sockets that may and want to see it (server/realtime/
 * routing.ts). It also keeps the sockets' principals and the companies' visibility settings
 * fresh from the `-user` and `-settings` events, pings, and maintains presence.
 *
 * Sequence numbers start at the hub's start time in microseconds, so a `lastSeq` handed out
 * by an earlier process (or another machine) is always below this process's backlog and
 * gets a resync instead of a wrong replay.
 */
import { z } from "zod";
import type { EventBus } from "../../actors/_runtime/bus.ts";
import type { ActorSystem } from "../../actors/_runtime/system.ts";
import { getUser } from "../../actors/platform/lookup.ts";
import { companySettings } from "../../actors/platform/lookup.ts";
import { type BusEvent, companyChannel } from "../../domain/events.ts";
import { type ClientFrame, CLOSE, type WsQuery } from "../../domain/realtime.ts";
import { Profile } from "../../domain/user.ts";
import type { SocketAuth } from "./auth.ts";
import { Connection, type ConnectionHost, decodeFrame } from "./connection.ts";
import { Flusher } from "./flusher.ts";
import { Presence } from "./presence.ts";
import { Room } from "./room.ts";
import { log } from "../../actors/_runtime/log.ts";

/** Tunables of the hub; tests shorten the timers with `hub.configure`. */
export interface HubOptions {
  /** Ping interval (spec: 18 s); a peer silent for two intervals is dropped. */
  pingIntervalMs: number;
  /** How long a user stays online after its last socket is gone. */
  presenceGraceMs: number;
  /** Events kept per company for resuming… */
  backlogMax: number;
  /** …and for at most this long. */
  backlogMaxAgeMs: number;
  /** Time a socket without `?token=` has to send its auth frame. */
  authTimeoutMs: number;
  /** A socket whose unsent frames exceed this is closed (it resumes when it reconnects). */
  maxBufferedBytes: number;
  /** Most chat boxes one socket may follow at once. */
  maxChatBoxes: number;
  /**
   * Each socket is flushed at most once per this window, counted from its own last flush
   * (flusher.ts): an event after a quiet spell goes out at once (a microtask later), while
   * under a steady stream the socket gets one message per window with every event queued
   * since. Messages, not events, are what a socket costs (each is a send through the kernel,
   * about half the server's CPU): in bench/fanout.ts (2,000 events/s over 1,100 sockets,
   * clients on the same two cores) windows of 0/15/20/25 ms gave ~345k/250k/202k/169k
   * messages and server CPU ~4.6/4.2/3.5/3.2 s. End-to-end p99 in interleaved runs: 15 ms
   * 73–170 ms (4 runs), 20 ms 33–45 ms in 5 of 6 runs (90 ms once), 25 ms 40–64 ms; p50
   * 14, 14–16 and 17–19 ms. 20 ms is the window where the machine keeps up with the stream
   * most of the time for 1–2 ms more median latency.
   */
  flushWindowMs: number;
}

const DEFAULTS: HubOptions = {
  pingIntervalMs: 18_000,
  presenceGraceMs: 10_000,
  backlogMax: 5_000,
  backlogMaxAgeMs: 10 * 60_000,
  authTimeoutMs: 10_000,
  maxBufferedBytes: 8 * 1024 * 1024,
  maxChatBoxes: 50,
  flushWindowMs: 20,
};

/** Frames a socket may send while its token is being checked. */
const MAX_PENDING = 100;

/** Verifies a token for a socket (bound to the app's deps by the route). */
export type Authenticate = (token: string) => Promise<SocketAuth>;

const UserEvent = z.object({
  action: z.string(),
  userId: z.number().optional(),
  user: z.object({
    id: z.number(),
    companyId: z.number(),
    profile: Profile,
    super: z.boolean(),
    queueIds: z.array(z.number()),
    updatedAt: z.number(),
  }).optional(),
});

const SettingEvent = z.object({
  action: z.string(),
  setting: z.object({ key: z.string(), value: z.string() }),
});

/** The realtime hub of one server. */
export class Hub {
  options: HubOptions;
  readonly #rooms = new Map<number, Room>();
  readonly #conns = new Set<Connection>();
  readonly #presence: Presence;
  readonly #seqBase = Date.now() * 1000;
  #ticker?: ReturnType<typeof setInterval>;
  readonly #flusher = new Flusher(() => this.options.flushWindowMs);
  /** Sockets opened since the start (metrics). */
  #opened = 0;
  readonly #host: ConnectionHost = {
    sent: { messages: 0, events: 0 },
    maxBufferedBytes: () => this.options.maxBufferedBytes,
    overflow: (conn) => this.#drop(conn, CLOSE.tooSlow, "Send buffer overflow"),
    queued: (conn) => this.#flusher.queued(conn),
  };
  #unsubscribe: () => void;
  #closed = false;

  constructor(readonly system: ActorSystem, bus: EventBus, options: Partial<HubOptions> = {}) {
    this.options = { ...DEFAULTS, ...options };
    this.#presence = new Presence(system, () => this.options.presenceGraceMs);
    this.#unsubscribe = bus.subscribe((event) => this.#onEvent(event));
  }

  /** Changes tunables; restarts the ping timer when it runs. */
  configure(options: Partial<HubOptions>): void {
    this.options = { ...this.options, ...options };
    if (this.#ticker !== undefined) this.#startTicker();
  }

  /** Starts pinging and clears online flags left by an earlier process. */
  async start(): Promise<void> {
    this.#startTicker();
    await this.#presence.reconcile();
  }

  /** Closes every socket (1001, reconnect later) and stops every timer. */
  close(): void {
    this.#closed = true;
    this.#unsubscribe();
    clearInterval(this.#ticker);
    this.#flusher.close();
    this.#presence.close();
    for (const conn of [...this.#conns]) {
      conn.close(CLOSE.goingAway, "Server shutting down");
      this.detach(conn);
    }
  }

  /**
   * Closes the company's sockets and forgets its room: the company moved to another process
   * (issue #35). The pages reconnect by themselves, through the router to the new owner, and
   * catch up from there (its sequence numbers are its own, so they refetch).
   */
  closeCompany(companyId: number): void {
    for (const conn of [...this.#conns]) {
      if (conn.principal?.companyId !== companyId) continue;
      conn.close(CLOSE.goingAway, "Company moved to another process");
      this.detach(conn);
    }
    this.#rooms.delete(companyId);
  }

  /** Ids of the company's online users (dashboard `onlineUser`, service panel). */
  onlineUserIds(companyId: number): number[] {
    return this.#presence.onlineUserIds(companyId);
  }

  /** The company's current sequence number (undefined before any socket of it connected). */
  currentSeq(companyId: number): number | undefined {
    return this.#rooms.get(companyId)?.seq;
  }

  /**
   * The sequence number a page rendered now resumes from: its socket connects with `lastSeq`
   * set to it, so every event published between the render and the socket's hello that the
   * user may see is replayed (or a resync says to refetch). Without it those events were lost
   * to the page: a fresh socket starts at the live edge. Opens the company's room, so its
   * events are numbered and kept from here on.
   */
  resumePoint(companyId: number): number {
    return this.#room(companyId).seq;
  }

  /** Counts for metrics and the benchmark: sockets open now and since the start, what they were sent. */
  stats(): { sockets: number; rooms: number; opened: number; messagesSent: number; eventsSent: number } {
    const { messages, events } = this.#host.sent;
    return { sockets: this.#conns.size, rooms: this.#rooms.size, opened: this.#opened, messagesSent: messages, eventsSent: events };
  }

  /** Takes an opened socket; it authenticates with `?token=` or its first frame. */
  open(socket: WebSocket, query: WsQuery, authenticate: Authenticate): Connection {
    const conn = new Connection(socket, query.format, authenticate, this.#host);
    if (this.#closed) {
      conn.close(CLOSE.goingAway, "Server shutting down");
      return conn;
    }
    this.#conns.add(conn);
    this.#opened++;
    if (query.token) void this.#authenticate(conn, query.token, query.lastSeq);
    else {
      conn.authTimer = setTimeout(
        () => this.#drop(conn, CLOSE.invalidToken, "Authentication timeout"),
        this.options.authTimeoutMs,
      );
    }
    return conn;
  }

  /** Handles one frame from the client. */
  receive(conn: Connection, data: unknown): void {
    conn.lastSeen = Date.now();
    if (conn.detached) return;
    const frame = decodeFrame(data);
    if (!frame) return conn.sendControl({ type: "error", message: "Unknown or malformed frame" });
    if (conn.principal) return this.#handle(conn, frame);
    if (conn.authenticating) {
      if (conn.pending.push(frame) > MAX_PENDING) this.#drop(conn, CLOSE.invalidToken, "Too many frames before auth");
    } else if (frame.type === "auth") {
      void this.#authenticate(conn, frame.token, undefined);
    } else {
      this.#drop(conn, CLOSE.invalidToken, "Authenticate first");
    }
  }

  /** Forgets a socket (closed by either side); idempotent. */
  detach(conn: Connection): void {
    if (conn.detached) return;
    conn.detached = true;
    clearTimeout(conn.authTimer);
    clearTimeout(conn.expiryTimer);
    this.#conns.delete(conn);
    const principal = conn.principal;
    if (!principal) return;
    this.#rooms.get(principal.companyId)?.remove(conn);
    if (!conn.away) this.#presence.down(principal.companyId, principal.id);
  }

  async #authenticate(conn: Connection, token: string, lastSeq: number | undefined) {
    conn.authenticating = true;
    clearTimeout(conn.authTimer);
    let result: SocketAuth;
    try {
      result = await conn.authenticate(token);
    } catch (error) {
      log.error("Socket authentication failed", { error });
      result = { code: CLOSE.invalidToken, reason: "Authentication failed" };
    }
    if ("code" in result) return this.#drop(conn, result.code, result.reason);
    const { principal, updatedAt } = result;
    const room = this.#room(principal.companyId);
    await room.ready;
    if (conn.detached) return;
    conn.tokenVersion = result.tokenVersion;
    conn.interest.paymentsOnly = result.paymentsOnly;
    this.#armExpiry(conn, result.exp);
    room.add(conn, principal, updatedAt);
    conn.authenticating = false;
    this.#presence.up(principal.companyId, principal.id);
    conn.sendControl({
      type: "hello",
      seq: conn.startSeq,
      userId: principal.id,
      companyId: principal.companyId,
    });
    if (lastSeq !== undefined) this.#resume(conn, room, lastSeq);
    for (const frame of conn.pending.splice(0)) this.#handle(conn, frame);
    // Catch a user change that was published while the token was being checked.
    const user = await getUser(this.system, principal.id).catch(() => undefined);
    if (user) room.updatePrincipal(principalOf(user), user.updatedAt);
    if (user) this.#revokeStale(room, user.id, user.tokenVersion);
  }

  /** Closes `conn` with 4003 (refresh, then reconnect) once its access token's `exp` passes. */
  #armExpiry(conn: Connection, exp: number): void {
    clearTimeout(conn.expiryTimer);
    // setTimeout holds at most 2^31-1 ms; a longer-lived token is re-armed when that runs out.
    const delay = Math.min(Math.max(0, exp * 1000 - Date.now()), 2 ** 31 - 1);
    conn.expiryTimer = setTimeout(() => {
      if (exp * 1000 > Date.now()) return this.#armExpiry(conn, exp);
      this.#drop(conn, CLOSE.expiredToken, "Token expired");
    }, delay);
  }

  /** Closes (4001) the user's sockets authenticated before its `tokenVersion` was bumped. */
  #revokeStale(room: Room, userId: number, tokenVersion: number): void {
    for (const conn of [...(room.members.get(userId)?.conns ?? [])]) {
      if (conn.tokenVersion < tokenVersion) this.#drop(conn, CLOSE.invalidToken, "Token revoked");
    }
  }

  /**
   * A user record changed: logout and password changes bump `tokenVersion` (not in the event,
   * which leaves secrets out), so the user's sockets, if any, check the record.
   */
  async #checkRevoked(room: Room, userId: number): Promise<void> {
    if (!room.members.get(userId)?.conns.size) return;
    const user = await getUser(this.system, userId).catch(() => undefined);
    if (user) this.#revokeStale(room, userId, user.tokenVersion);
  }

  #handle(conn: Connection, frame: ClientFrame): void {
    const interest = conn.interest;
    switch (frame.type) {
      case "auth":
      case "pong":
        return;
      case "joinChatBox":
        if (interest.chatBoxes.size >= this.options.maxChatBoxes) interest.chatBoxes.clear();
        interest.chatBoxes.add(frame.ticketId);
        return;
      case "leaveChatBox":
        if (frame.ticketId === undefined) interest.chatBoxes.clear();
        else interest.chatBoxes.delete(frame.ticketId);
        return;
      case "joinNotification":
        interest.notification = true;
        return;
      case "leaveNotification":
        interest.notification = false;
        return;
      case "joinTickets":
        interest.ticketStatuses.add(frame.status);
        return;
      case "leaveTickets":
        if (frame.status === undefined) interest.ticketStatuses.clear();
        else interest.ticketStatuses.delete(frame.status);
        return;
      case "userStatus":
        return this.#setAway(conn, frame.status === "offline");
      case "resume": {
        const room = this.#rooms.get(conn.principal!.companyId);
        if (room) this.#resume(conn, room, frame.lastSeq);
        return;
      }
    }
  }

  #resume(conn: Connection, room: Room, lastSeq: number): void {
    if (conn.resumed) return;
    conn.resumed = true;
    const result = room.replay(conn, lastSeq);
    if (result.kind === "resync") conn.sendControl({ type: "resync", seq: conn.startSeq });
    else conn.sendControl({ type: "resumed", seq: conn.startSeq, count: result.count });
  }

  #setAway(conn: Connection, away: boolean): void {
    const who = conn.principal!;
    if (conn.away === away) return;
    conn.away = away;
    if (away) this.#presence.down(who.companyId, who.id);
    else this.#presence.up(who.companyId, who.id);
  }

  #onEvent(event: BusEvent): void {
    const now = Date.now();
    if (event.companyId === null) {
      for (const room of this.#rooms.values()) room.publish(event, now);
      return;
    }
    const room = this.#rooms.get(event.companyId);
    if (!room) return; // no socket of this company ever connected here: nobody to resume
    let removedUser: number | undefined;
    // Suffix first: a message's events (most of them) build no channel name to compare with.
    const channel = event.channel;
    if (channel.endsWith("-user") && channel === companyChannel(event.companyId, "user")) {
      const parsed = UserEvent.safeParse(event.data);
      if (parsed.success && parsed.data.user) {
        room.updatePrincipal(principalOf(parsed.data.user), parsed.data.user.updatedAt);
        void this.#checkRevoked(room, parsed.data.user.id);
      } else if (parsed.success && parsed.data.action === "delete") {
        removedUser = parsed.data.userId;
      }
    } else if (channel.endsWith("-settings") && channel === companyChannel(event.companyId, "settings")) {
      const parsed = SettingEvent.safeParse(event.data);
      if (parsed.success) {
        const { action, setting } = parsed.data;
        room.applySetting(setting.key, action === "delete" ? undefined : setting.value);
      }
    }
    room.publish(event, now);
    const gone = removedUser === undefined ? undefined : room.members.get(removedUser);
    for (const conn of gone ? [...gone.conns] : []) {
      this.#drop(conn, CLOSE.invalidToken, `User ${removedUser} was deleted`);
    }
  }

  #room(companyId: number): Room {
    let room = this.#rooms.get(companyId);
    if (!room) {
      room = new Room(
        companyId,
        this.#seqBase,
        this.options.backlogMax,
        () => companySettings(this.system, companyId),
      );
      this.#rooms.set(companyId, room);
    }
    return room;
  }

  #drop(conn: Connection, code: number, reason: string): void {
    conn.close(code, reason);
    this.detach(conn);
  }

  #startTicker(): void {
    clearInterval(this.#ticker);
    this.#ticker = setInterval(() => this.#tick(), this.options.pingIntervalMs);
  }

  /** Pings live sockets, drops silent ones, trims old backlog entries. */
  #tick(): void {
    const now = Date.now();
    const silentBefore = now - 2 * this.options.pingIntervalMs;
    for (const conn of [...this.#conns]) {
      if (!conn.principal) continue;
      if (conn.lastSeen < silentBefore) {
        this.#drop(conn, CLOSE.pingTimeout, "No pong");
        continue;
      }
      const room = this.#rooms.get(conn.principal.companyId);
      conn.sendControl({ type: "ping", seq: room?.seq ?? conn.startSeq });
    }
    for (const room of this.#rooms.values()) {
      room.backlog.trimOlderThan(now - this.options.backlogMaxAgeMs);
    }
  }
}

/** The principal fields of a user record (or of the user in a `-user` event). */
function principalOf(user: {
  id: number;
  companyId: number;
  profile: Profile;
  super: boolean;
  queueIds: number[];
}) {
  return {
    id: user.id,
    companyId: user.companyId,
    profile: user.profile,
    super: user.super,
    queueIds: user.queueIds,
  };
}
