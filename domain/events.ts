/**
 * Events that actors publish on the bus and the realtime hub fans out (DESIGN §5).
 * `channel` is the spec's channel name (`company-{id}-ticket`…); `data` is the frame body
 * the client expects (`{ action, ticket }`…). `scope` says who may receive it; the hub
 * applies the same visibility rules as the list endpoints (domain/visibility.ts).
 */

/** Who may receive an event inside its company. */
export type EventScope =
  /** Everyone of the company (or everyone, for `company-announcement`). */
  | { kind: "company" }
  /** Only these users (e.g. an internal chat, the auth event of one user). */
  | { kind: "users"; userIds: number[] }
  /** Users who may see this ticket (its queue, its owner, group rules; admins always). */
  | {
    kind: "ticket";
    ticketId: number;
    queueId: number | null;
    userId: number | null;
    isGroup: boolean;
    status: string;
  }
  /** Only admins (and supervisors, when `supervisors` is true). */
  | { kind: "admins"; supervisors?: boolean }
  /**
   * Everyone of the company but admins: the other half of an event whose admin half carries
   * what only admins may read (a connection's QR code pairs a phone to the company's number).
   */
  | { kind: "notAdmins" };

export interface BusEvent {
  /** The company the event belongs to; null for platform-wide events (announcements). */
  companyId: number | null;
  channel: string;
  data: unknown;
  scope: EventScope;
  /**
   * True when the change created the record the event is about (a new ticket's `update`).
   * For listeners that tell creation from change (outbound webhooks); sockets never see it.
   */
  created?: boolean;
}

/** Builds the spec's per-company channel name: `company-{id}-{suffix}`. */
export function companyChannel(companyId: number, suffix: string): string {
  return `company-${companyId}-${suffix}`;
}

/**
 * An event as two: admins get `data`, everyone else `redacted` (the same change without what
 * only admins may read). A socket receives exactly one of them.
 */
export function splitForAdmins(event: Omit<BusEvent, "scope">, redacted: unknown): BusEvent[] {
  return [
    { ...event, scope: { kind: "admins" } },
    { ...event, data: redacted, scope: { kind: "notAdmins" } },
  ];
}
