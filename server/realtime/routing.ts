/**
 * Who receives an event (issue #5 "Who receives what"). Two questions, asked in this order:
 *
 * 1. `allowed`: may this user see it at all? Decided by the event's scope alone, with the
 *    same ticket rule as the list endpoints (domain/visibility.ts canSeeTicket). This is the
 *    leak guard and is applied to live delivery and to resume replays alike.
 * 2. `wanted`: does this socket ask for it? Only message events are narrowed by interest:
 *    `company-{id}-appMessage` reaches a socket that joined the ticket's chat box
 *    (joinChatBox), the notification bell (joinNotification), or the list of the ticket's
 *    status (joinTickets). Every other event, ticket events included, goes to every socket
 *    allowed to see it: joinTickets only adds message previews, so a list can never miss a
 *    ticket update, and what a socket is not allowed to see it never gets.
 *
 * Resume replays skip question 2 (the client rejoins its rooms after reconnecting, possibly
 * after the replay), so a replay may carry a few extra message events, never a forbidden one.
 */
import type { BusEvent, EventScope } from "../../domain/events.ts";
import type { Principal } from "../../domain/permissions.ts";
import { canSeeTicket, type VisibilitySettings } from "../../domain/visibility.ts";

/** What one socket asked to follow. */
export interface Interest {
  chatBoxes: Set<number>;
  notification: boolean;
  ticketStatuses: Set<string>;
  /** Set by the server for a billing-only socket: only `company-{id}-payment` events (#21). */
  paymentsOnly: boolean;
}

/** A fresh socket's interest: nothing joined yet. */
export function noInterest(): Interest {
  return { chatBoxes: new Set(), notification: false, ticketStatuses: new Set(), paymentsOnly: false };
}

/** Whether `who` may receive an event of `scope` (its company was already matched). */
export function allowed(
  who: Pick<Principal, "id" | "profile" | "queueIds">,
  scope: EventScope,
  settings: VisibilitySettings,
): boolean {
  switch (scope.kind) {
    case "company":
      return true;
    case "users":
      return scope.userIds.includes(who.id);
    case "admins":
      return who.profile === "admin" || (scope.supervisors === true && who.profile === "supervisor");
    case "notAdmins":
      return who.profile !== "admin";
    case "ticket":
      return canSeeTicket(who, scope, settings);
  }
}

/** Whether a message event is one the socket asked for (see the module comment). */
export function wanted(interest: Interest, event: BusEvent): boolean {
  if (interest.paymentsOnly) return event.channel.endsWith("-payment");
  if (event.scope.kind !== "ticket" || !event.channel.endsWith("-appMessage")) return true;
  return interest.notification ||
    interest.chatBoxes.has(event.scope.ticketId) ||
    interest.ticketStatuses.has(event.scope.status);
}
