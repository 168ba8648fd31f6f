/**
 * What happens to a stored message after it was written: delivery acks, the send result,
 * edits and deletes. Pure: `applyChange` decides, the actor persists.
 */
import type { Ack, Message } from "../../domain/message.ts";

/** One change to one stored message. */
export type MessageChange =
  /** A delivery ack from the provider; acks only ever increase. */
  | { type: "ack"; ack: Ack }
  /** The channel sent it and the provider gave it this id (ack becomes at least 1). */
  | { type: "sent"; providerId: string }
  /** A send attempt failed; `final` when no retry follows (then it shows as failed). */
  | { type: "sendFailed"; error: string; final: boolean; code?: string }
  /** The provider accepted it, then reported it undeliverable (`code`: the error code shown). */
  | { type: "failed"; code: string }
  /** New text, by an agent or by the sender's phone. */
  | { type: "edit"; body: string }
  /** Deleted, by an agent or by the sender's phone. */
  | { type: "delete" };

/** The code a message that could not be sent carries (spec 000 §8). */
export const SEND_FAILED_CODE = "ERR_SENDING_WAPP_MSG";

/**
 * The message after `change`, or null when the change changes nothing (an older ack, a
 * repeated delete, the same text again): nothing is written or published then.
 */
export function applyChange(message: Message, change: MessageChange, now: number): Message | null {
  switch (change.type) {
    case "ack":
      if (change.ack <= message.ack) return null;
      return { ...message, ack: change.ack, failed: null, updatedAt: now };
    case "sent":
      if (message.providerId === change.providerId) return null;
      return {
        ...message,
        providerId: change.providerId,
        ack: Math.max(message.ack, 1),
        failed: null,
        updatedAt: now,
      };
    case "sendFailed": {
      const attempts = message.sendAttempts + 1;
      if (message.providerId !== null) return null;
      return {
        ...message,
        sendAttempts: attempts,
        failed: change.final ? { code: change.code ?? SEND_FAILED_CODE, attempts } : message.failed,
        updatedAt: now,
      };
    }
    case "failed":
      if (message.failed?.code === change.code) return null;
      return { ...message, failed: { code: change.code, attempts: Math.max(1, message.sendAttempts) }, updatedAt: now };
    case "edit":
      if (message.isDeleted || message.body === change.body) return null;
      return { ...message, body: change.body, isEdited: true, updatedAt: now };
    case "delete":
      if (message.isDeleted) return null;
      return { ...message, isDeleted: true, updatedAt: now };
  }
}
