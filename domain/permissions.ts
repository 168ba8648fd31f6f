/**
 * One rule table for roles (spec 000 §6, 001 §6), used by every handler and by the UI.
 * The spec names the checks but not the table behind them; the table below is our reading:
 * supervisor has every supervisor check, admin has everything supervisor has plus the
 * admin checks, and the super flag adds the platform checks.
 */
import type { Profile } from "./user.ts";

/** Who is acting: what the verified token and the user record say. */
export interface Principal {
  id: number;
  companyId: number;
  profile: Profile;
  super: boolean;
  queueIds: number[];
}

const SUPERVISOR = [
  "dashboard:view",
  "drawer-service-items:view",
  "drawer-admin-items:view",
  "tickets-manager:closedAll",
  "tickets-manager:groupsAll",
  "tickets-manager:showAllTickets",
  "tickets-manager:userFilter",
  "ticket-options:deleteTicket",
  "ticket-options:spy",
  "contacts-page:deleteContact",
  "ticket-options:signMessage",
  "tags:manage",
  "quick-messages:manageAll",
  "campaigns:view",
  "financeiro:view",
  "service-panel:view",
] as const;

const ADMIN = [
  "tickets-manager:showall",
  "tickets-manager:connectionFilter",
  "user-modal:editProfile",
  "user-modal:editQueues",
  "connections-page:addConnection",
  "connections-page:actionButtons",
  "connections-page:editOrDeleteConnection",
  "contact-page:exports",
  "contacts-page:assignUsers",
  "wallet:fullUserList",
  "users:manage",
  "queues:manage",
  "settings:manage",
  "company:viewOwn",
  "greeting:renewalDate",
] as const;

const SUPER = [
  "super:companies",
  "super:plans",
  "super:helps",
  "super:announcements",
  "super:globalSettings",
  "super:deleteConnection",
  "user-modal:editSuper",
] as const;

export type Permission = typeof SUPERVISOR[number] | typeof ADMIN[number] | typeof SUPER[number];

const BY_PROFILE: Record<Profile, ReadonlySet<Permission>> = {
  user: new Set(),
  supervisor: new Set(SUPERVISOR),
  admin: new Set([...SUPERVISOR, ...ADMIN]),
};
const SUPER_SET: ReadonlySet<Permission> = new Set(SUPER);

/** Whether `who` holds `permission`. */
export function can(who: Pick<Principal, "profile" | "super">, permission: Permission): boolean {
  if (SUPER_SET.has(permission)) return who.super;
  return BY_PROFILE[who.profile].has(permission);
}

/** Admin or supervisor: the profiles that see every ticket of the company. */
export function isManager(who: Pick<Principal, "profile">): boolean {
  return who.profile === "admin" || who.profile === "supervisor";
}
