/**
 * Who may see a ticket (spec 000 §2 "Tickets screen", §6). One rule for the list endpoints
 * and the realtime hub, so an agent is never sent an event for a ticket its list would hide.
 *
 * Our reading of the spec:
 * - admin and supervisor see every ticket of their company;
 * - a plain user sees tickets assigned to it, and tickets of its queues (or without queue);
 * - a group ticket is seen by a plain user when `allusersviewgroups` is on, or when
 *   `viewgroups` is on and the queue rule above holds (or the ticket is its own);
 * - a closed ticket is seen by a plain user only when `viewclosed` is on (or it is its own).
 */
import type { Principal } from "./permissions.ts";
import { isManager } from "./permissions.ts";
import { settingOn } from "./settings.ts";

/** The ticket fields the rule reads. */
export interface TicketVisibilityFacts {
  status: string;
  queueId: number | null;
  userId: number | null;
  isGroup: boolean;
}

/** The company settings the rule reads (values as stored: "enabled"/"disabled"). */
export type VisibilitySettings = Partial<
  Record<"viewclosed" | "viewgroups" | "allusersviewgroups", string>
>;

export function canSeeTicket(
  who: Pick<Principal, "id" | "profile" | "queueIds">,
  ticket: TicketVisibilityFacts,
  settings: VisibilitySettings,
): boolean {
  if (isManager(who)) return true;
  const own = ticket.userId === who.id;
  if (own) return true;
  if (ticket.status === "closed" && !settingOn(settings.viewclosed)) return false;
  const inMyQueues = ticket.queueId === null || who.queueIds.includes(ticket.queueId);
  if (ticket.isGroup) {
    if (settingOn(settings.allusersviewgroups)) return true;
    return settingOn(settings.viewgroups) && inMyQueues;
  }
  return inMyQueues;
}

/**
 * Whether `who` may preview a waiting (pending) ticket it sees: read the conversation in the
 * read-only ticket messages dialog, without opening the ticket nor clearing its unread count
 * (GET /messages-ghost). The company setting viewppw ("Operador visualiza prévias?" in the
 * product the spec was read from) gives plain users this; admins always have it (spec 000 §6:
 * viewppw is always on for admins), supervisors have more through the spy permission.
 */
export function canPreviewPending(
  who: Pick<Principal, "profile">,
  settings: Partial<Record<"viewppw", string>>,
): boolean {
  return who.profile === "admin" || settingOn(settings.viewppw);
}
