/**
 * Scheduled messages (spec 001 §2.19, §3 Schedule, §7; 000 ticket options menu): a message
 * to one contact, sent at `sendAt` through a connection, optionally opening a ticket
 * (`geral`) in a queue and assigning it (`atribuirUser` → `userId`), with a media file and a
 * weekly recurrence (schedule_recurrence.ts). Status PENDENTE → ENVIADA, or ERRO when it
 * could not go out; edit is allowed only while PENDENTE (spec 001 §4).
 */
import { z } from "zod";
import { matchesSearch } from "./paging.ts";
import { MAX_REPEAT, parseDays, parseSendAt, REPEAT_FOREVER } from "./schedule_recurrence.ts";
import { MAX, MSG, OptionalId } from "./text.ts";

export const ScheduleStatus = z.enum(["PENDENTE", "ENVIADA", "ERRO"]);
export type ScheduleStatus = z.infer<typeof ScheduleStatus>;

/** A stored schedule (KV `["schedule", companyId, id]`). Dates are ms since the epoch. */
export const Schedule = z.object({
  id: z.number(),
  companyId: z.number(),
  contactId: z.number(),
  body: z.string(),
  /** When the next (or only) occurrence goes out. */
  sendAt: z.number(),
  /** When the last occurrence went out. */
  sentAt: z.number().nullable(),
  status: ScheduleStatus,
  /** Open a ticket for the message (pending in `queueId`, or open to `userId`). */
  geral: z.boolean(),
  queueId: z.number().nullable(),
  /** The connection; null = the company's default connection at send time. */
  whatsappId: z.number().nullable(),
  /** Assign the opened ticket to `userId`. */
  atribuirUser: z.boolean(),
  userId: z.number().nullable(),
  repeatEvery: z.number().nullable(),
  repeatCount: z.number(),
  selectDaysRecorrenci: z.string(),
  /** Stored media file (company media folder) and its original name. */
  mediaPath: z.string().nullable(),
  mediaName: z.string().nullable(),
  /** Who created it. */
  createdBy: z.number(),
  /** The ticket the last occurrence went into. */
  ticketId: z.number().nullable(),
  /** Why it is ERRO (an error code or reason), else null. */
  error: z.string().nullable(),
  /** Tries of the current occurrence that found the connection not ready. */
  attempts: z.number(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type Schedule = z.infer<typeof Schedule>;

/** The spec client's message for a short body (its Yup schema: min 5). */
export const SHORT_BODY = "Mensagem muito curta";

/** A yes/no that also arrives as "true"/"1"/1 (form fields, the API's openTicket 0|1). */
const YesNo = z.preprocess(
  (v) => v === true || v === "true" || v === "1" || v === 1,
  z.boolean(),
);

/** `repeatEvery`: none, 1–30 repetitions, or REPEAT_FOREVER. */
const RepeatEvery = z.preprocess(
  (v) => (v === "" || v === null || v === undefined || v === 0 || v === "0" ? null : Number(v)),
  z.number().int().refine((n) => (n >= 1 && n <= MAX_REPEAT) || n === REPEAT_FOREVER, {
    message: `Use 1 to ${MAX_REPEAT} or ${REPEAT_FOREVER}`,
  }).nullable(),
);

/** `selectDaysRecorrenci` as text or list of English weekday names, stored as "Monday, Friday". */
const Days = z.union([
  z.string().max(MAX.name, MSG.tooLong),
  z.array(z.string().max(MAX.shortText, MSG.tooLong)).max(7, MSG.tooLong),
]).nullable().optional().transform((v, ctx) => {
  const days = parseDays(v ?? "");
  if (days === null) {
    ctx.addIssue({ code: "custom", message: "Use English weekday names (Sunday … Saturday)" });
    return z.NEVER;
  }
  return days.join(", ");
});

/** `sendAt` as ms (see parseSendAt); required. */
const SendAt = z.unknown().transform((v, ctx) => {
  if (v === undefined || v === null || v === "") {
    ctx.addIssue({ code: "custom", message: MSG.obrigatorio });
    return z.NEVER;
  }
  const ms = parseSendAt(v);
  if (Number.isNaN(ms)) {
    ctx.addIssue({ code: "custom", message: "Invalid date" });
    return z.NEVER;
  }
  return ms;
});

/**
 * POST /schedules and PUT /schedules/{id} (`scheduleData` of the multipart body, or JSON).
 * Texts after the spec's client: 'Obrigatório' and 'Mensagem muito curta' (body ≥ 5).
 * `openTicket` (0|1, as the external API names it) is accepted for `geral`.
 */
export const ScheduleInput = z.object({
  body: z.string({ error: MSG.obrigatorio }).trim().min(1, MSG.obrigatorio).min(5, SHORT_BODY).max(
    4096,
    MSG.tooLong,
  ),
  contactId: z.preprocess(
    (v) => (v === "" || v === null ? undefined : v),
    z.coerce.number({ error: MSG.obrigatorio }).int().positive(MSG.obrigatorio),
  ),
  sendAt: SendAt,
  whatsappId: OptionalId.optional(),
  queueId: OptionalId.optional(),
  userId: OptionalId.optional(),
  geral: YesNo.optional(),
  openTicket: YesNo.optional(),
  atribuirUser: YesNo.optional(),
  repeatEvery: RepeatEvery.optional(),
  selectDaysRecorrenci: Days,
  /** An explicit null (with no file) removes the attached media on PUT. */
  mediaPath: z.string().max(MAX.url, MSG.tooLong).nullable().optional(),
});
export type ScheduleInput = z.infer<typeof ScheduleInput>;

/** GET /schedules query (spec 001 §7: searchParam, pageNumber; contactId and userId filters). */
export const ScheduleListQuery = z.object({
  searchParam: z.string().trim().max(200).default(""),
  pageNumber: z.coerce.number().int().min(1).catch(1).default(1),
  contactId: OptionalId.optional(),
  userId: OptionalId.optional(),
  status: ScheduleStatus.optional(),
  /** The calendar's visible range (ISO or ms): schedules due in [start, end). */
  start: z.unknown().optional().transform((v) => (v === undefined ? undefined : parseSendAt(v))),
  end: z.unknown().optional().transform((v) => (v === undefined ? undefined : parseSendAt(v))),
});
export type ScheduleListQuery = z.infer<typeof ScheduleListQuery>;

/** Rows per page: 20 like every list; 500 for a calendar range (a month of schedules at once). */
export function schedulePageSize(q: Pick<ScheduleListQuery, "start" | "end">): number {
  return q.start !== undefined && q.end !== undefined ? 500 : 20;
}

/** Whether a schedule passes the list filters (search: contact name or number, or body). */
export function scheduleMatches(
  s: Schedule,
  q: ScheduleListQuery,
  contact: { name: string; number: string } | undefined,
): boolean {
  if (q.contactId && s.contactId !== q.contactId) return false;
  if (q.userId && s.userId !== q.userId && s.createdBy !== q.userId) return false;
  if (q.status && s.status !== q.status) return false;
  if (q.start !== undefined && !(s.sendAt >= q.start)) return false;
  if (q.end !== undefined && !(s.sendAt < q.end)) return false;
  return matchesSearch(q.searchParam, s.body, contact?.name, contact?.number);
}

/** What happened when an occurrence was due. */
export type SendOutcome =
  | { type: "sent"; ticketId: number }
  /** Worth trying again soon (the connection is not connected yet). */
  | { type: "retry"; reason: string }
  | { type: "failed"; reason: string };

/** A connection not ready is tried again this often, this many times, before ERRO. */
export const RETRY_MS = 30_000;
export const MAX_ATTEMPTS = 5;

/**
 * The schedule after an occurrence's outcome at `now`, and when its timer is due next
 * (null: nothing more to send). `next` is the recurrence's next occurrence, computed by the
 * caller with nextAfterSend. A failure ends a recurrence too: ERRO is shown on the calendar
 * and the user creates it again (edit is offered only while PENDENTE).
 */
export function afterOutcome(
  s: Schedule,
  outcome: SendOutcome,
  now: number,
  next: number | null,
  retryMs = RETRY_MS,
): { schedule: Schedule; dueAt: number | null } {
  if (outcome.type === "sent") {
    const sent = { ...s, sentAt: now, ticketId: outcome.ticketId, attempts: 0, error: null, updatedAt: now };
    if (next === null) return { schedule: { ...sent, status: "ENVIADA" }, dueAt: null };
    return {
      schedule: { ...sent, status: "PENDENTE", sendAt: next, repeatCount: s.repeatCount + 1 },
      dueAt: next,
    };
  }
  if (outcome.type === "retry" && s.attempts + 1 < MAX_ATTEMPTS) {
    return { schedule: { ...s, attempts: s.attempts + 1, updatedAt: now }, dueAt: now + retryMs };
  }
  return {
    schedule: { ...s, status: "ERRO", error: outcome.reason, attempts: s.attempts + 1, updatedAt: now },
    dueAt: null,
  };
}

/** The API's view of a schedule: dates as ISO text, the contact and user joined. */
export interface ScheduleView extends Omit<Schedule, "sendAt" | "sentAt" | "createdAt" | "updatedAt"> {
  sendAt: string;
  sentAt: string | null;
  createdAt: string;
  updatedAt: string;
  contact: { id: number; name: string; number: string } | null;
  user: { id: number; name: string } | null;
  mediaUrl?: string | null;
}

/** Builds the view of `s` with its contact and user (null when gone). */
export function scheduleView(
  s: Schedule,
  contact: { id: number; name: string; number: string } | undefined,
  user: { id: number; name: string } | undefined,
  iso: (ms: number) => string,
): ScheduleView {
  return {
    ...s,
    sendAt: iso(s.sendAt),
    sentAt: s.sentAt === null ? null : iso(s.sentAt),
    createdAt: iso(s.createdAt),
    updatedAt: iso(s.updatedAt),
    contact: contact ? { id: contact.id, name: contact.name, number: contact.number } : null,
    user: user ? { id: user.id, name: user.name } : null,
  };
}
