/**
 * The users page's row shape and the mapping of a live `company-{id}-user` event into it.
 * The event carries the stored user (queueIds, whatsappId) without the names GET /users/
 * expands, so the page resolves them from the queue and connection lists it already holds.
 */
import type { Profile } from "../../domain/user.ts";

/** A queue or connection as the page needs it: its id and name. */
export interface NamedRef {
  id: number;
  name: string;
}

/** A user row as GET /users/ answers it (secrets already removed by the server). */
export interface UserRow {
  id: number;
  name: string;
  email: string;
  profile: Profile;
  super: boolean;
  queueIds: number[];
  whatsappId: number | null;
  farewellMessage: string;
  queues: NamedRef[];
  whatsapp: NamedRef | null;
}

/** GET /users/ body. */
export interface UsersResponse {
  users: UserRow[];
  hasMore: boolean;
  count?: number;
}

/** Keeps only id and name of each record (a connection's list answer carries its QR code too). */
export function namedRefs(records: unknown): NamedRef[] {
  if (!Array.isArray(records)) return [];
  return records.map((r: { id: number; name: string }) => ({ id: r.id, name: r.name }));
}

/** Builds a row from an event's user, naming its queues and connection from `queues` and `connections`. */
export function userRowFrom(record: Record<string, unknown>, queues: NamedRef[], connections: NamedRef[]): UserRow | null {
  if (typeof record.id !== "number") return null;
  const user = record as unknown as Omit<UserRow, "queues" | "whatsapp">;
  const queueIds = Array.isArray(user.queueIds) ? user.queueIds : [];
  return {
    ...user,
    queueIds,
    queues: queueIds.flatMap((id) => queues.filter((q) => q.id === id)),
    whatsapp: connections.find((c) => c.id === user.whatsappId) ?? null,
  };
}
