/**
 * The one WebSocket of a tab (DESIGN §5, protocol in domain/realtime.ts): `/ws?token=…&lastSeq=N`.
 * Event frames are `{ channel, seq, data }`; control frames hello/ping/resumed/resync carry
 * `seq` too. On a drop it reconnects with the last sequence number seen so missed events are
 * replayed; a `resync` tells the pages to refetch ("resync" pseudo-channel). Close code 4003
 * means the token expired: refresh it, then reconnect; 4001 ends the session. A new login of
 * the same user (company-{id}-auth) shows the spec's message, clears the session and reloads
 * after 1 s.
 */
import { loginWithNotice } from "../login/notices.ts";
import { CLOSE, framesOf, SeqTracker, type ServerFrame as WireFrame, type ServerMessage } from "../../domain/realtime.ts";
import { billingToken, clearSession, refreshToken, storedToken, storeToken } from "./api.ts";
import { t } from "./i18n.ts";
import { showToast } from "./toast.ts";

/** A frame pushed by the server. */
export interface ServerFrame {
  channel: string;
  seq?: number;
  data: unknown;
}

type Handler = (data: unknown, channel: string) => void;

const handlers = new Map<string, Set<Handler>>();
const joined = new Map<string, Record<string, unknown>>();
let ws: WebSocket | undefined;
const seqs = new SeqTracker();
let companyId = 0;
let userId = 0;
let retry = 0;
let stopped = false;

function dispatch(channel: string, data: unknown) {
  for (const key of [channel, "*"]) for (const h of handlers.get(key) ?? []) h(data, channel);
}

function onFrame(frame: ServerFrame) {
  if (frame.channel === `company-${companyId}-auth`) {
    const data = frame.data as { action?: string; user?: { id?: number } };
    if (data?.user?.id === userId || data?.user?.id === undefined) return kickedOut();
  }
  dispatch(frame.channel, frame.data);
}

function kickedOut() {
  showToast("error", t("auth.loggedElsewhere"), "auth");
  stopped = true;
  ws?.close();
  setTimeout(() => {
    storeToken(null);
    localStorage.clear();
    // The login page says why (#41: the first browser used to land on a bare login page).
    location.assign(loginWithNotice("elsewhere"));
  }, 1000);
}

function connect() {
  if (stopped) return;
  // An expired company's /financeiro has only the tab's billing token: the hub then sends it
  // the company's payment events and nothing else (the checkout waits for CONCLUIDA).
  const token = storedToken() || billingToken();
  if (!token) return;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const lastSeq = seqs.connecting();
  const resume = lastSeq === undefined ? "" : `&lastSeq=${lastSeq}`;
  const socket = new WebSocket(`${proto}://${location.host}/ws?token=${encodeURIComponent(token)}${resume}`);
  ws = socket;
  socket.onopen = () => {
    retry = 0;
    for (const frame of joined.values()) socket.send(JSON.stringify(frame));
    dispatch("socket:open", null);
  };
  socket.onmessage = (event) => {
    let message: ServerMessage;
    try {
      message = JSON.parse(String(event.data));
    } catch {
      return;
    }
    if (!message || typeof message !== "object") return;
    // The hub may batch several event frames into one message (domain/realtime.ts).
    for (const frame of framesOf(message) as WireFrame[]) {
      const verdict = seqs.accept(frame);
      if ("type" in frame) {
        if (frame.type === "ping") socket.send(JSON.stringify({ type: "pong" }));
        if (verdict === "resync") dispatch("resync", frame);
      } else onFrame(frame);
    }
  };
  socket.onclose = async (event) => {
    if (ws !== socket || stopped) return;
    ws = undefined;
    if (event.code === CLOSE.invalidToken) return clearSession();
    if (event.code === CLOSE.subscriptionExpired) return;
    if (event.code === CLOSE.expiredToken && !(await refreshToken())) return clearSession();
    const delay = Math.min(10_000, 500 * 2 ** retry++);
    setTimeout(connect, delay);
  };
}

/** The sequence number the server rendered this page at (server/pages/document.ts), if any. */
function pageLiveSeq(): number | undefined {
  const content = document.querySelector('meta[name="live-seq"]')?.getAttribute("content");
  return content ? Number(content) : undefined;
}

/**
 * Opens the tab's socket for this user (once). The first one resumes from the page's render,
 * so an event published while the page loaded is not lost to it.
 */
export function startSocket(company: number, user: number): void {
  if (ws || typeof WebSocket === "undefined") return;
  companyId = company;
  userId = user;
  stopped = false;
  seqs.seed(pageLiveSeq());
  connect();
}

/** Listens to a channel ("*" for all, "resync", "socket:open"); returns the unsubscribe. */
export function onChannel(channel: string, handler: Handler): () => void {
  if (!handlers.has(channel)) handlers.set(channel, new Set());
  handlers.get(channel)!.add(handler);
  return () => handlers.get(channel)?.delete(handler);
}

/** The channel name `company-{id}-{suffix}`. */
export function channelName(company: number, suffix: string): string {
  return `company-${company}-${suffix}`;
}

/** Sends a client frame now and again after every reconnect (joins) under `key`. */
export function join(key: string, frame: Record<string, unknown>): void {
  joined.set(key, frame);
  if (ws?.readyState === WebSocket.OPEN) ws.send(JSON.stringify(frame));
}

/** Forgets a join and sends its leave frame. */
export function leave(key: string, frame?: Record<string, unknown>): void {
  joined.delete(key);
  if (frame && ws?.readyState === WebSocket.OPEN) ws.send(JSON.stringify(frame));
}

const holders = new Map<string, number>();

/**
 * A join shared by several views: the first `retain` of `key` sends `joinFrame` (and again
 * after every reconnect), the release of the last one sends `leaveFrame`. So a view that
 * closes leaves its room (spec 000 §7: leaveTickets, leaveNotification, leaveChatBox) without
 * taking it from another view of the tab that still follows it. Returns the release.
 */
export function retain(key: string, joinFrame: Record<string, unknown>, leaveFrame: Record<string, unknown>): () => void {
  const n = holders.get(key) ?? 0;
  holders.set(key, n + 1);
  if (n === 0) join(key, joinFrame);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (holders.get(key) ?? 1) - 1;
    if (left > 0) return void holders.set(key, left);
    holders.delete(key);
    leave(key, leaveFrame);
  };
}

/** Sends a one-off client frame (userStatus…). */
export function sendFrame(frame: Record<string, unknown>): void {
  if (ws?.readyState === WebSocket.OPEN) ws.send(JSON.stringify(frame));
}
