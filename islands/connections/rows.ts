/**
 * The connections page's row and the small rules the island applies to it: which session
 * engine (`lib`) a connection runs on, its status and QR for an engine, and the queue names a
 * live `company-{id}-whatsapp` event lacks (the event carries `queueIds` only).
 */
import type { SessionStatus } from "../../domain/channel.ts";

/** A queue as a connection lists it. */
export interface QueueRef {
  id: number;
  name: string;
  color: string;
}

/** A connection row as GET /whatsapp answers it (WhatsappView), the fields the page reads. */
export interface ConnectionRow {
  id: number;
  name: string;
  number: string;
  status: SessionStatus;
  statusEvo: SessionStatus;
  qrcode: string;
  qrcodeEvo: string;
  isDefault: boolean;
  provider: string;
  queueIds: number[];
  queues: QueueRef[];
  /** Milliseconds from the list and the record events, ISO text from the session events. */
  updatedAt: number | string;
}

/** The session engine a session action talks to (DELETE /whatsappsession body `lib`). */
export type SessionLib = "baileys" | "evolution";

/** The row's id (the table's row id and the live patch key). */
export const rowId = (row: ConnectionRow) => row.id;

/**
 * The engine a connection runs on: Evolution connections report in `statusEvo`/`qrcodeEvo`
 * (actors/sessions/actor.ts copies them); every other provider is the first engine.
 */
export function libOf(row: Pick<ConnectionRow, "provider">): SessionLib {
  return row.provider === "evolution" ? "evolution" : "baileys";
}

/** The status and QR text of one engine of a connection. */
export function sessionOf(row: ConnectionRow, lib: SessionLib): { status: SessionStatus; qrcode: string } {
  return lib === "evolution" ? { status: row.statusEvo, qrcode: row.qrcodeEvo } : { status: row.status, qrcode: row.qrcode };
}

/**
 * The queues of `queueIds` by name, from the queues already seen (`known`), or null when one
 * is unknown (a queue created after the page loaded: the page then reloads the list).
 */
export function queuesFor(queueIds: readonly number[], known: ReadonlyMap<number, QueueRef>): QueueRef[] | null {
  const found: QueueRef[] = [];
  for (const id of queueIds) {
    const queue = known.get(id);
    if (!queue) return null;
    found.push(queue);
  }
  return found;
}
