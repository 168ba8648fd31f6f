/**
 * Tickets (spec 000 §3) and their lifecycle (spec 000 §4) as one pure state machine:
 * `decide(ticket, command, principal, settings, now)` returns the next ticket and the side
 * effects the caller performs (greeting, farewell), or throws the AppError that refuses it.
 * The ticket desk actor (actors/tickets) applies decisions one at a time per company, so two
 * accepts of one ticket can never both win.
 *
 * Readings chosen where the spec is silent (spec/README: the stricter reading):
 * - Accept of a ticket that is already open for another user is refused (409 for managers,
 *   403 for plain users) unless it is a group; reassigning goes through transfer.
 * - Transfer is allowed from open and from pending (a pending ticket may change queue).
 * - Reopen assigns the ticket to the user who reopens it (or the given user for managers).
 */
import { z } from "zod";
import { AppError, forbidden, unreachable } from "./errors.ts";
import { lastMessageText, type Message } from "./message.ts";
import { can, isManager, type Principal } from "./permissions.ts";
import { settingOn } from "./settings.ts";
import { canSeeTicket, type VisibilitySettings } from "./visibility.ts";

export const TicketStatus = z.enum(["pending", "open", "closed"]);
export type TicketStatus = z.infer<typeof TicketStatus>;

/** A ticket as stored (dates in ms since the epoch). Fields added later carry defaults. */
export const Ticket = z.object({
  /** Version of the stored shape; records of this version load without parsing. */
  v: z.literal(1).default(1),
  id: z.number(),
  uuid: z.string(),
  companyId: z.number(),
  status: TicketStatus,
  userId: z.number().nullable(),
  queueId: z.number().nullable(),
  whatsappId: z.number().nullable(),
  contactId: z.number(),
  isGroup: z.boolean(),
  channel: z.string().default("whatsapp"),
  chatbot: z.boolean().default(false),
  oportunidadeId: z.number().nullable().default(null),
  lastMessage: z.string().default(""),
  unreadMessages: z.number().default(0),
  tagIds: z.array(z.number()).default([]),
  amountUsedBotQueues: z.number().default(0),
  ratingId: z.number().nullable().default(null),
  rating: z.number().nullable().default(null),
  createdAt: z.number(),
  updatedAt: z.number(),
  /** Time of the latest message (either direction). */
  latestCreatedAt: z.number().nullable().default(null),
  closedAt: z.number().nullable().default(null),
  /**
   * Who closed it (resolve, or "Fechar" on a waiting ticket); null while open, and when the
   * system closed it. The report's "Usuário" names this user (issue #41; ticket_report_row.ts).
   */
  closedBy: z.number().nullable().default(null),
  /** When a user last took the ticket (accept, create open, reopen); for the dashboard. */
  acceptedAt: z.number().nullable().default(null),
  /**
   * Whether the latest message came from the company side (agent, bot, own phone): the
   * customer then owes the answer, which is what auto-close waits for (ticket_timers.ts).
   */
  lastFromMe: z.boolean().default(false),
  /**
   * How many changes of the latest-message fields (`TicketLatest`) this record includes. A
   * change of those fields alone is stored on its own, not as the whole record rewritten; a
   * stored `TicketLatest` with a higher `seq` is newer than the record's copy
   * (actors/tickets/latest.ts).
   */
  latestSeq: z.number().default(0),
});
export type Ticket = z.infer<typeof Ticket>;

/**
 * What a message changes on its ticket (`withMessage`), and reading it (`readTicket`): stored
 * apart from the record (actors/tickets/keys.ts `ticketLatestKey`), ~60 B instead of the
 * ~420 B record.
 */
export const TicketLatest = z.object({
  seq: z.number(),
  lastMessage: z.string(),
  updatedAt: z.number(),
  latestCreatedAt: z.number().nullable(),
  unreadMessages: z.number(),
  lastFromMe: z.boolean(),
});
export type TicketLatest = z.infer<typeof TicketLatest>;

/** What stores `t`'s latest-message fields (`t.latestSeq` is its seq). */
export function latestOfTicket(t: Ticket): TicketLatest {
  return {
    seq: t.latestSeq,
    lastMessage: t.lastMessage,
    updatedAt: t.updatedAt,
    latestCreatedAt: t.latestCreatedAt,
    unreadMessages: t.unreadMessages,
    lastFromMe: t.lastFromMe,
  };
}

/** `t` with its stored latest-message fields applied, when they are newer than the record's. */
export function withStoredLatest(t: Ticket, latest: TicketLatest): Ticket {
  if (latest.seq <= t.latestSeq) return t;
  return {
    ...t,
    lastMessage: latest.lastMessage,
    updatedAt: latest.updatedAt,
    latestCreatedAt: latest.latestCreatedAt,
    unreadMessages: latest.unreadMessages,
    lastFromMe: latest.lastFromMe,
    latestSeq: latest.seq,
  };
}

/** The settings `decide` reads (values as stored: "enabled"/"disabled"). */
export type TicketSettings = VisibilitySettings & Partial<
  Record<"userRating" | "sendGreetingAccepted", string>
>;

/** What the caller does after the decision is committed. */
export type TicketEffect =
  | { type: "greeting" }
  | { type: "farewell" }
  /** Send rating survey `ratingId` to the customer (resolve with userRating on). */
  | { type: "survey"; ratingId: number };

/** One change asked of the ticket machine; discriminated on `type`. */
export type TicketCommand =
  | {
    type: "create";
    id: number;
    uuid: string;
    companyId: number;
    contactId: number;
    whatsappId: number | null;
    queueId: number | null;
    userId: number | null;
    status: TicketStatus;
    isGroup: boolean;
    channel: string;
  }
  /** pending → open for `userId` (default: the principal). */
  | { type: "accept"; userId?: number | null }
  /** pending → closed. */
  | { type: "closePending" }
  /**
   * open → closed; with setting userRating on, the survey to send the customer (`ratingId`,
   * chosen in the close dialog) is required. `rating`, a score given with the resolve, does
   * not replace it: the customer's answer is recorded later by the ratings area.
   */
  | { type: "resolve"; ratingId?: number | null; rating?: number | null; farewell?: boolean }
  /** open → pending, user cleared. */
  | { type: "return" }
  /** Queue required; with a user it stays (or becomes) open for that user, else pending. */
  | { type: "transfer"; queueId: number; userId: number | null }
  /** closed → open. */
  | { type: "reopen"; userId?: number | null }
  | { type: "setUnread"; unreadMessages: number }
  | { type: "setBotQueues"; amountUsedBotQueues: number }
  /** Links the ticket to an opportunity (spec 002 §3 "oportunidadeId"), or unlinks it with null. */
  | { type: "setOportunidade"; oportunidadeId: number | null }
  | { type: "delete" };

/** The outcome of one command: the next ticket (null when deleted) and effects. */
export interface Decision {
  ticket: Ticket | null;
  effects: TicketEffect[];
}

/** The text shown when a ticket belongs to a queue the user is not in (spec 000 §4). */
export const OTHER_SECTOR = "Atendimento em uso por outro setor!";
/** The text of a refused action on someone else's ticket (spec 000 §4, contact flow). */
export const NO_PERMISSION = "Sem Permissão!";
/** The text of a resolve without the required rating (spec 000 §5). */
export const RATING_REQUIRED = "Avaliação obrigatória";

const otherSector = () => forbidden(OTHER_SECTOR);

function invalidTransition(ticket: Ticket, action: string): AppError {
  return new AppError("ERR_CONFLICT", {
    status: 409,
    message: `Cannot ${action} ticket ${ticket.id}: it is ${ticket.status}`,
  });
}

/**
 * Throws unless `who` may act on `ticket` at all: managers always; a plain user on its own
 * tickets, and on tickets it can see that are not another user's (groups excepted).
 */
export function assertCanHandle(
  ticket: Ticket,
  who: Principal,
  settings: TicketSettings,
): void {
  if (isManager(who) || ticket.userId === who.id) return;
  if (!canSeeTicket(who, ticket, settings)) throw otherSector();
  if (ticket.userId !== null && ticket.status !== "closed" && !ticket.isGroup) {
    throw forbidden(NO_PERMISSION);
  }
}

/** The assignee a command may name: a plain user may only name itself. */
function assignee(who: Principal, userId: number | null | undefined): number {
  if (userId === undefined || userId === null || userId === who.id) return who.id;
  if (!isManager(who)) throw forbidden(NO_PERMISSION);
  return userId;
}

/** Decides one command; see the module doc. Pure: no I/O, `now` given. */
export function decide(
  ticket: Ticket | null,
  command: TicketCommand,
  who: Principal,
  settings: TicketSettings,
  now: number,
): Decision {
  if (command.type === "create") return decideCreate(ticket, command, who, now);
  if (!ticket) throw new AppError("ERR_NO_TICKET_FOUND", { status: 404, message: "Ticket not found" });
  const same = (): Decision => ({ ticket, effects: [] });
  const next = (patch: Partial<Ticket>, effects: TicketEffect[] = []): Decision => ({
    ticket: { ...ticket, ...patch, updatedAt: now },
    effects,
  });

  switch (command.type) {
    case "accept": {
      if (ticket.status === "open") {
        if (ticket.userId === who.id) return same();
        if (ticket.isGroup && canSeeTicket(who, ticket, settings)) {
          return next({ userId: who.id, acceptedAt: now });
        }
        if (!isManager(who)) throw forbidden(NO_PERMISSION);
        throw new AppError("ERR_CONFLICT", {
          status: 409,
          message: `Cannot accept ticket ${ticket.id}: user ${ticket.userId} already accepted it`,
        });
      }
      if (ticket.status !== "pending") throw invalidTransition(ticket, "accept");
      assertCanHandle(ticket, who, settings);
      const userId = assignee(who, command.userId);
      const greeting: TicketEffect[] = settingOn(settings.sendGreetingAccepted)
        ? [{ type: "greeting" }]
        : [];
      return next({ status: "open", userId, acceptedAt: now, unreadMessages: 0 }, greeting);
    }
    case "closePending": {
      if (ticket.status !== "pending") throw invalidTransition(ticket, "close");
      assertCanHandle(ticket, who, settings);
      return next({ status: "closed", closedAt: now, closedBy: who.id || null });
    }
    case "resolve": {
      if (ticket.status !== "open") throw invalidTransition(ticket, "resolve");
      assertCanHandle(ticket, who, settings);
      const ratingOn = settingOn(settings.userRating);
      const ratingId = command.ratingId ?? null;
      if (ratingOn && ratingId === null) {
        throw new AppError("ERR_VALIDATION", {
          status: 400,
          message: RATING_REQUIRED,
          fields: { ratingId: RATING_REQUIRED },
        });
      }
      const effects: TicketEffect[] = command.farewell === false ? [] : [{ type: "farewell" }];
      // The survey follows the farewell; groups are not surveyed.
      if (ratingOn && ratingId !== null && !ticket.isGroup) effects.push({ type: "survey", ratingId });
      // A score given with the resolve (one taken by phone, say) is kept as before; the
      // customer's own answer arrives later through the ratings area.
      return next({ status: "closed", closedAt: now, closedBy: who.id || null, ratingId: ratingId ?? ticket.ratingId, rating: command.rating ?? null }, effects);
    }
    case "return": {
      if (ticket.status !== "open") throw invalidTransition(ticket, "return");
      assertCanHandle(ticket, who, settings);
      return next({ status: "pending", userId: null });
    }
    case "transfer": {
      if (ticket.status === "closed") throw invalidTransition(ticket, "transfer");
      assertCanHandle(ticket, who, settings);
      if (command.userId === null) {
        return next({ status: "pending", userId: null, queueId: command.queueId });
      }
      const taken = ticket.status === "pending" || ticket.userId !== command.userId;
      return next({
        status: "open",
        userId: command.userId,
        queueId: command.queueId,
        acceptedAt: taken ? now : ticket.acceptedAt,
      });
    }
    case "reopen": {
      if (ticket.status !== "closed") throw invalidTransition(ticket, "reopen");
      assertCanHandle(ticket, who, settings);
      const userId = assignee(who, command.userId);
      return next({ status: "open", userId, closedAt: null, closedBy: null, acceptedAt: now, unreadMessages: 0 });
    }
    case "setUnread": {
      if (!isManager(who) && !canSeeTicket(who, ticket, settings)) throw otherSector();
      if (ticket.unreadMessages === command.unreadMessages) return same();
      return { ticket: { ...ticket, unreadMessages: command.unreadMessages }, effects: [] };
    }
    case "setBotQueues": {
      assertCanHandle(ticket, who, settings);
      return { ticket: { ...ticket, amountUsedBotQueues: command.amountUsedBotQueues }, effects: [] };
    }
    case "setOportunidade": {
      assertCanHandle(ticket, who, settings);
      if (ticket.oportunidadeId === command.oportunidadeId) return same();
      return next({ oportunidadeId: command.oportunidadeId });
    }
    case "delete": {
      if (!can(who, "ticket-options:deleteTicket")) throw forbidden(NO_PERMISSION);
      return { ticket: null, effects: [] };
    }
    default:
      return unreachable(command);
  }
}

function decideCreate(
  existing: Ticket | null,
  command: NewTicket,
  who: Principal,
  now: number,
): Decision {
  if (existing) throw new Error(`Ticket ${existing.id} already exists`);
  if (!isManager(who) && command.queueId !== null && !who.queueIds.includes(command.queueId)) {
    throw forbidden(OTHER_SECTOR);
  }
  const userId = command.status === "open" ? assignee(who, command.userId) : null;
  return { ticket: buildTicket({ ...command, userId }, now), effects: [] };
}

/** The fields of a new ticket. */
export type NewTicket = Omit<Extract<TicketCommand, { type: "create" }>, "type"> & {
  type?: "create";
};

/** A new ticket record (no checks: `decide` and the inbound path check before). */
export function buildTicket(command: NewTicket, now: number): Ticket {
  return {
    v: 1,
    id: command.id,
    uuid: command.uuid,
    companyId: command.companyId,
    status: command.status,
    userId: command.userId,
    queueId: command.queueId,
    whatsappId: command.whatsappId,
    contactId: command.contactId,
    isGroup: command.isGroup,
    channel: command.channel,
    chatbot: false,
    oportunidadeId: null,
    lastMessage: "",
    unreadMessages: 0,
    tagIds: [],
    amountUsedBotQueues: 0,
    ratingId: null,
    rating: null,
    createdAt: now,
    updatedAt: now,
    latestCreatedAt: null,
    closedAt: command.status === "closed" ? now : null,
    closedBy: command.status === "closed" ? command.userId ?? null : null,
    acceptedAt: command.status === "open" ? now : null,
    lastFromMe: false,
    latestSeq: 0,
  };
}

/** The same empty list for every ticket without tags (records are replaced, never mutated). */
const NO_TAGS: number[] = Object.freeze([]) as unknown as number[];

/**
 * A stored record as the ticket desk keeps it: KV's deserializer builds each object property
 * by property (fields in a separate PropertyArray) and gives every record its own copies of
 * "closed" and "whatsapp" and its own empty tag list. Rebuilt as one literal, every ticket
 * shares one hidden class with its fields in the object, and the status, channel and empty
 * list are shared: four heap objects fewer per ticket for each full collection to mark
 * (issue #23 §2/§3: that marking is the open-loop stall, and it grows with resident tickets).
 */
export function residentTicket(r: Ticket): Ticket {
  return {
    v: 1,
    id: r.id,
    uuid: r.uuid,
    companyId: r.companyId,
    status: r.status === "closed" ? "closed" : r.status === "open" ? "open" : "pending",
    userId: r.userId,
    queueId: r.queueId,
    whatsappId: r.whatsappId,
    contactId: r.contactId,
    isGroup: r.isGroup,
    channel: r.channel === "whatsapp" ? "whatsapp" : r.channel,
    chatbot: r.chatbot,
    oportunidadeId: r.oportunidadeId,
    lastMessage: r.lastMessage,
    unreadMessages: r.unreadMessages,
    tagIds: r.tagIds.length ? r.tagIds : NO_TAGS,
    amountUsedBotQueues: r.amountUsedBotQueues,
    ratingId: r.ratingId,
    rating: r.rating,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    latestCreatedAt: r.latestCreatedAt,
    closedAt: r.closedAt,
    // A record stored before #41 has no closer: the report names its holder then.
    closedBy: r.closedBy ?? null,
    acceptedAt: r.acceptedAt,
    lastFromMe: r.lastFromMe,
    // Last: a record stored before notes gets it in settleResident in the same place.
    latestSeq: r.latestSeq ?? 0,
  };
}

/**
 * A record already in residentTicket's shape (a snapshot's, actors/_runtime/record_snapshot.ts)
 * given its shared values in place: one string per status and channel, one empty tag list.
 */
export function settleResident(t: Ticket): Ticket {
  t.status = t.status === "closed" ? "closed" : t.status === "open" ? "open" : "pending";
  if (t.channel === "whatsapp") t.channel = "whatsapp";
  if (t.tagIds.length === 0) t.tagIds = NO_TAGS;
  if (t.latestSeq === undefined) t.latestSeq = 0;
  return t;
}

/** Whether a ticket counts as the contact's active ticket on its connection. */
export function isActive(ticket: Pick<Ticket, "status">): boolean {
  return ticket.status === "open" || ticket.status === "pending";
}

/**
 * The ERR_OTHER_OPEN_TICKET refusal naming the contact's active ticket (spec 000 §5, §8);
 * the HTTP layer adds the user's name to `ticket.user`.
 */
export function otherOpenTicket(active: Ticket): AppError {
  return new AppError("ERR_OTHER_OPEN_TICKET", {
    status: 400,
    message: `Contact ${active.contactId} already has ticket ${active.id} (${active.status})`,
    extra: {
      ticket: {
        id: active.id,
        uuid: active.uuid,
        status: active.status,
        userId: active.userId,
        user: null,
      },
    },
  });
}

/** What a message tells its ticket: the list's preview, who wrote, when, and if it is unread. */
export interface MessageNote {
  preview: string;
  fromMe: boolean;
  at: number;
  unread: boolean;
}

/** The note a stored message owes its ticket (inbound and outbound alike: unread when the customer wrote). */
export function noteOf(message: Pick<Message, "body" | "mediaType" | "mediaName" | "fromMe" | "createdAt">): MessageNote {
  return { preview: lastMessageText(message), fromMe: message.fromMe, at: message.createdAt, unread: !message.fromMe };
}

/** `t` once a message joined it: preview, times, unread counter and who wrote last. */
export function withMessage(t: Ticket, note: MessageNote): Ticket {
  return {
    ...t,
    lastMessage: note.preview.slice(0, 255),
    updatedAt: Math.max(note.at, t.updatedAt),
    latestCreatedAt: note.at,
    unreadMessages: t.unreadMessages + (note.unread ? 1 : 0),
    lastFromMe: note.fromMe,
    latestSeq: t.latestSeq + 1,
  };
}

/** `t` once read: no unread messages (a change of its note, like a message's). */
export function readTicket(t: Ticket): Ticket {
  return { ...t, unreadMessages: 0, latestSeq: t.latestSeq + 1 };
}
