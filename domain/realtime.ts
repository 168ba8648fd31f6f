/**
 * The live-events protocol of `/ws` (DESIGN §5, spec 000 §7 "Realtime"): the connect query,
 * the frames a client sends, the frames the server sends and the close codes. Pure and
 * importable by islands.
 *
 * Session, in order:
 * 1. Connect to `/ws?token=…` (or send `{ type: "auth", token }` as the first frame);
 *    `format=msgpack` switches both directions to msgpack binary frames; `lastSeq=N` resumes.
 * 2. The server answers `{ type: "hello", seq }` (the company's current sequence number).
 *    When resuming, the missed events follow the hello, then `{ type: "resumed", seq }`
 *    (or `{ type: "resync", seq }` when the backlog no longer covers `lastSeq`: refetch).
 * 3. Events arrive as `{ channel, seq, data }`; `seq` grows by one per company event, so a
 *    socket sees gaps where events were for others. Events published in one burst arrive
 *    batched: one message holding an array of such frames, in seq order. The client keeps `lastSeq` = the greatest
 *    seq of an event, of `ping`, of `hello` (when not resuming) or of `resumed`/`resync`.
 * 4. The server sends `{ type: "ping", seq }` every 18 s; the client answers `{ type: "pong" }`
 *    (any frame counts). A peer silent for two intervals is dropped.
 */
import { z } from "zod";
import { MAX, MSG } from "./text.ts";

/** Close codes of `/ws`: what the client should do next. */
export const CLOSE = {
  /** Server shutting down: reconnect (with lastSeq) after a short delay. */
  goingAway: 1001,
  /** Missing, malformed or revoked token, or the user no longer exists: log in again. */
  invalidToken: 4001,
  /**
   * Billing-only token or expired subscription: no live events for this session. The server no
   * longer sends it: such a socket now gets its company's payment events only (issue #21).
   */
  subscriptionExpired: 4002,
  /** Expired access token: refresh it (POST /auth/refresh_token), then reconnect. */
  expiredToken: 4003,
  /** No frame from the client for two ping intervals. */
  pingTimeout: 4004,
  /** The client read too slowly and its send buffer overflowed: reconnect with lastSeq. */
  tooSlow: 4008,
} as const;

/** Query of `GET /ws`. */
export const WsQuery = z.object({
  token: z.string().min(1).max(MAX.secret, MSG.tooLong).optional(),
  format: z.enum(["json", "msgpack"]).default("json"),
  lastSeq: z.coerce.number().int().nonnegative().optional(),
});
export type WsQuery = z.infer<typeof WsQuery>;

const TicketRef = z.coerce.number().int().positive();

/** Frames a client sends, discriminated on `type`. */
export const ClientFrame = z.discriminatedUnion("type", [
  z.object({ type: z.literal("auth"), token: z.string().min(1) }),
  /** Follow the messages of one open conversation. */
  z.object({ type: z.literal("joinChatBox"), ticketId: TicketRef }),
  z.object({ type: z.literal("leaveChatBox"), ticketId: TicketRef.optional() }),
  /** Receive message events of every ticket this user may see (the notification bell). */
  z.object({ type: z.literal("joinNotification") }),
  z.object({ type: z.literal("leaveNotification") }),
  /** Receive message events of tickets with this status (list previews). */
  z.object({ type: z.literal("joinTickets"), status: z.string().min(1).max(32) }),
  z.object({ type: z.literal("leaveTickets"), status: z.string().min(1).max(32).optional() }),
  /** Presence: "offline" stops this tab counting the user as online, "online" resumes. */
  z.object({ type: z.literal("userStatus"), status: z.enum(["online", "offline"]).default("online") }),
  /** Resume after a reconnect: replay every event after `lastSeq` this socket may see. */
  z.object({ type: z.literal("resume"), lastSeq: z.number().int().nonnegative() }),
  z.object({ type: z.literal("pong") }),
]);
export type ClientFrame = z.infer<typeof ClientFrame>;

/** Control frames the server sends (event frames have no `type`). */
export type ControlFrame =
  | { type: "hello"; seq: number; userId: number; companyId: number }
  | { type: "ping"; seq: number }
  | { type: "resumed"; seq: number; count: number }
  | { type: "resync"; seq: number }
  | { type: "error"; message: string };

/** One live event as the client receives it. */
export interface EventFrame {
  channel: string;
  seq: number;
  data: unknown;
}

/** Any frame the server sends. */
export type ServerFrame = ControlFrame | EventFrame;

/** One WebSocket message from the server: a frame, or a batch of event frames. */
export type ServerMessage = ServerFrame | EventFrame[];

/** The spec's per-company channel suffixes (spec 000 §7, 001 §7, 002 §7). */
export const COMPANY_CHANNELS = [
  "ticket",
  "appMessage",
  "contact",
  "whatsapp",
  "whatsappSession",
  "user",
  "auth",
  "chat",
  "queue",
  "tag",
  "quickmessage",
  "schedule",
  "campaign",
  "payment",
  "ContactList",
  "ContactListItem",
  "settings",
] as const;

/** The platform-wide announcements channel. */
export const ANNOUNCEMENT_CHANNEL = "company-announcement";

/** The frames one server message carries (a batch is unpacked, in order). */
export function framesOf(message: ServerMessage): ServerFrame[] {
  return Array.isArray(message) ? message : [message];
}

/**
 * The client's side of "no lost updates": tracks the `lastSeq` to send when reconnecting,
 * following the rule at the top of this file. `accept` returns "resync" when the client must
 * refetch its lists because events were lost beyond the server's backlog.
 */
export class SeqTracker {
  #lastSeq: number | undefined;
  #resuming = false;

  /** The value for `?lastSeq=` on the next connect (undefined: nothing to resume). */
  get lastSeq(): number | undefined {
    return this.#lastSeq;
  }

  /**
   * Starts from the sequence number a server-rendered page was read at (its `live-seq`
   * meta), so the first socket resumes from there; nothing once a frame has been seen.
   */
  seed(seq: number | undefined): void {
    if (this.#lastSeq === undefined && seq !== undefined && Number.isSafeInteger(seq)) this.#lastSeq = seq;
  }

  /** Call when opening a socket; returns the `lastSeq` to put in its query. */
  connecting(): number | undefined {
    this.#resuming = this.#lastSeq !== undefined;
    return this.#lastSeq;
  }

  /** Feeds one received frame; "resync" means refetch everything shown. */
  accept(frame: ServerFrame): "resync" | undefined {
    if (!("type" in frame)) {
      this.#advance(frame.seq);
      return undefined;
    }
    switch (frame.type) {
      case "hello":
      case "ping":
        if (!this.#resuming) this.#advance(frame.seq);
        return undefined;
      case "resumed":
        this.#resuming = false;
        this.#advance(frame.seq);
        return undefined;
      case "resync":
        this.#resuming = false;
        this.#lastSeq = frame.seq;
        return "resync";
      case "error":
        return undefined;
    }
  }

  #advance(seq: number): void {
    if (this.#lastSeq === undefined || seq > this.#lastSeq) this.#lastSeq = seq;
  }
}
