/**
 * What the campaigns actor needs from the host, bound per actor system in server/start.ts so
 * the actor never imports server/: the contact lists it reads (`ContactListSource`, until the
 * contact-lists actor offers the same reads), the members of a group list (`GroupListSource`),
 * the send itself (connection, shared per-number
 * pacing, provider idempotency), and the time scale of the pacing (tests shorten it).
 * A timer delivered before the host bound its ports (the first moments of a restart) waits.
 */
import type { ActorSystem } from "../_runtime/system.ts";

/** One contact of a contact list, as the engine reads it. */
export interface ContactListEntry {
  id: number;
  name: string;
  number: string;
  email: string | null;
  isWhatsappValid: boolean | null;
}

/** The narrow read of contact lists the engine needs (ids ascending = the sending order). */
export interface ContactListSource {
  /** The list's name, or undefined when it does not exist (in that company). */
  name(companyId: number, listId: number): Promise<string | undefined>;
  /** Up to `limit` entries with id > `afterId`, ascending by id. */
  entriesAfter(companyId: number, listId: number, afterId: number, limit: number): Promise<ContactListEntry[]>;
  /** How many entries are not known to be invalid (isWhatsappValid !== false): the report's valid contacts. */
  validCount(companyId: number, listId: number): Promise<number>;
  /** The highest entry id of the list now (0 when empty): a campaign's audience ends there (#41). */
  lastEntryId?(companyId: number, listId: number): Promise<number>;
}

/** The narrow read of WhatsApp groups the group list needs (group_audience.ts). */
export interface GroupListSource {
  /** The group's name, or undefined when the company has no such group contact. */
  name(companyId: number, groupId: number): Promise<string | undefined>;
  /**
   * The people to send to, as the group has them now, through the first of `whatsappIds` that
   * can tell: never the connections' own numbers, each once, named as the company's contacts
   * name them (else the number), and none already in contact list `listId`. Throws when no
   * connection can tell now (the campaign tries again a little later).
   */
  members(companyId: number, groupId: number, whatsappIds: readonly number[], listId: number | null): Promise<{ number: string; name: string }[]>;
}

/** One message of a campaign to hand to a connection. */
export interface CampaignSend {
  companyId: number;
  whatsappId: number;
  number: string;
  name: string;
  body: string;
  media: { path: string; name: string } | null;
  /**
   * Deterministic per (campaign, row, kind), so a resend after a crash repeats it; how far each
   * channel recognises the repeat is in the campaigns actor's module doc.
   */
  idempotencyKey: string;
  /** Open (or reuse) the contact's ticket and store the message there (campaign fields). */
  ticket: { open: boolean; status: "pending" | "open" | "closed"; queueId: number | null; userId: number | null; tagId: number | null } | null;
}

export interface CampaignPorts {
  contactLists: ContactListSource;
  groupLists: GroupListSource;
  /**
   * Sends after the connection's shared pacing slot; resolves once the provider accepted it,
   * or with `failed` when it can never be sent (the campaign's file is gone): that row is
   * marked failed and the campaign goes on. A throw is a passing failure, tried again later.
   */
  send(message: CampaignSend): Promise<{ providerId: string } | { failed: string }>;
  /** Multiplies every campaign interval (1 in production; tests shorten, 0 = none). */
  readonly timeScale: number;
}

const bound = new WeakMap<ActorSystem, PromiseWithResolvers<CampaignPorts> & { value?: CampaignPorts }>();

function slot(system: ActorSystem) {
  let entry = bound.get(system);
  if (!entry) bound.set(system, entry = Promise.withResolvers<CampaignPorts>());
  return entry;
}

/** Binds the host's ports to `system` (once, at start-up). */
export function bindCampaignPorts(system: ActorSystem, ports: CampaignPorts): void {
  const entry = slot(system);
  if (entry.value) throw new Error("Campaign ports are already bound to this actor system");
  entry.value = ports;
  entry.resolve(ports);
}

/** The ports of `system`, once bound. */
export function campaignPorts(system: ActorSystem): Promise<CampaignPorts> {
  return slot(system).promise;
}
