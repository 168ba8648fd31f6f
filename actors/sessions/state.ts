/**
 * The session state machine of one connection (spec 000 §4, 001 §4; DESIGN §6), pure:
 * DISCONNECTED → OPENING → qrcode → PAIRING → CONNECTED, and back to DISCONNECTED on a drop
 * (reconnect with backoff) or TIMEOUT after too many failed reconnects or unscanned QRs.
 * The flags on the published event drive the client's toasts: `new` ('WhatsApp desconectado
 * e novo QRcode gerado'), `expired` ('QRcode expirado'), `success` ('WhatsApp conectado com
 * sucesso!'); `dropped` is our extra flag for the admins' "connection lost" alert.
 */
import type { SessionStatus } from "../../domain/channel.ts";
import type { ConnectionAlert } from "../../domain/connection_alert.ts";

/** What the live adapter (or an admin action) reports to the session. */
export type SessionInput =
  | { type: "opening" }
  | { type: "qr"; qrcode: string }
  | { type: "pairing" }
  | { type: "connected"; number: string }
  | { type: "disconnected"; loggedOut: boolean; reason: string }
  | { type: "stopped" }
  /** The adapter stayed in OPENING past OPEN_TIMEOUT_MS (armed by "opening"). */
  | { type: "openTimeout" };

/** The persisted state of a session actor. */
export interface SessionState {
  v: 1;
  companyId: number;
  whatsappId: number;
  /** Set when a working session dropped; cleared when it is back. */
  dropped: boolean;
  /** QR codes shown since the last open: too many unscanned ones expire the attempt. */
  qrCount: number;
  /** Failed reconnects since the last open. */
  retries: number;
  /**
   * The open alert of a drop the admins were told of (domain/connection_alert.ts), until the
   * connection is back; absent in states written before issue #40.
   */
  alert?: ConnectionAlert;
}

/** Unscanned QR codes after which the attempt stops (about 5 × 20 s with Baileys). */
export const MAX_QR = 5;
/** Failed reconnects after which the session is TIMEOUT and waits for an admin. */
export const MAX_RETRIES = 6;

/** How long a session may stay OPENING before it is TIMEOUT. */
export const OPEN_TIMEOUT_MS = 60_000;

/** Backoff before reconnect attempt `retries` (1-based): 2 s, 4 s, … capped at 60 s. */
export function reconnectDelay(retries: number): number {
  return Math.min(60_000, 1000 * 2 ** Math.max(1, retries));
}

/** What a transition changes on the connection record and what it announces. */
export interface SessionStep {
  state: SessionState;
  record: { status: SessionStatus; qrcode?: string; number?: string; retries: number };
  flags: { expired?: true; new?: true; success?: true; dropped?: true };
  /** Delay of the reconnect attempt to arm, or null to cancel any. */
  reconnectIn: number | null;
  /** The adapter should be stopped (expired QR, given up). */
  stop: boolean;
}

/** Applies one input to the session; `current` is the record's status now. */
export function sessionStep(
  state: SessionState,
  current: SessionStatus,
  input: SessionInput,
): SessionStep {
  const base = { state: { ...state }, flags: {}, reconnectIn: null, stop: false };
  switch (input.type) {
    case "opening":
      return { ...base, record: { status: "OPENING", qrcode: "", retries: state.retries } };
    case "qr": {
      const qrCount = state.qrCount + 1;
      if (qrCount > MAX_QR) {
        return {
          ...base,
          state: { ...state, qrCount: 0 },
          record: { status: "DISCONNECTED", qrcode: "", retries: 0 },
          flags: { expired: true },
          stop: true,
        };
      }
      const wasWorking = state.dropped || current === "CONNECTED" || current === "PAIRING";
      return {
        ...base,
        state: { ...state, qrCount, dropped: false },
        record: { status: "qrcode", qrcode: input.qrcode, retries: qrCount },
        flags: wasWorking ? { new: true } : {},
      };
    }
    case "pairing":
      return { ...base, record: { status: "PAIRING", qrcode: "", retries: state.retries } };
    case "connected":
      return {
        ...base,
        state: { ...state, dropped: false, qrCount: 0, retries: 0 },
        record: { status: "CONNECTED", qrcode: "", number: input.number, retries: 0 },
        flags: { success: true },
      };
    case "disconnected": {
      if (input.loggedOut) {
        return {
          ...base,
          state: { ...state, dropped: current === "CONNECTED" || state.dropped, retries: 0, qrCount: 0 },
          record: { status: "DISCONNECTED", qrcode: "", retries: 0 },
          flags: current === "CONNECTED" ? { dropped: true } : {},
          // A logged-out session starts over at once to show a new QR.
          reconnectIn: 0,
        };
      }
      const retries = state.retries + 1;
      const flags = current === "CONNECTED" ? { dropped: true as const } : {};
      if (retries > MAX_RETRIES) {
        return {
          ...base,
          state: { ...state, dropped: true, retries },
          record: { status: "TIMEOUT", qrcode: "", retries },
          flags,
          stop: true,
        };
      }
      return {
        ...base,
        state: { ...state, dropped: state.dropped || current === "CONNECTED", retries },
        record: { status: "DISCONNECTED", qrcode: "", retries },
        flags,
        reconnectIn: reconnectDelay(retries),
      };
    }
    case "openTimeout":
      if (current !== "OPENING") {
        return { ...base, record: { status: current, retries: state.retries } };
      }
      return {
        ...base,
        record: { status: "TIMEOUT", qrcode: "", retries: state.retries },
        flags: state.dropped ? { dropped: true } : {},
        stop: true,
      };
    case "stopped":
      return {
        ...base,
        state: { ...state, dropped: false, retries: 0, qrCount: 0 },
        record: { status: "DISCONNECTED", qrcode: "", retries: 0 },
      };
  }
}
