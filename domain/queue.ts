/** Queues (departments) with opening hours and chatbot settings (spec 001 §3, §5, §2.15). */
import { z } from "zod";
import { MAX, MSG, OptionalId, sized } from "./text.ts";

export const QueueSchedule = z.object({
  weekday: z.string(),
  weekdayEn: z.string(),
  startTime: z.string(),
  endTime: z.string(),
});
export type QueueSchedule = z.infer<typeof QueueSchedule>;

export const Queue = z.object({
  id: z.number(),
  companyId: z.number(),
  name: z.string(),
  color: z.string(),
  prioridade: z.number(),
  greetingMessage: z.string(),
  outOfHoursMessage: z.string(),
  tempoRoteador: z.number(),
  ativarRoteador: z.boolean(),
  isChatbot: z.boolean(),
  typeChatbot: z.string(),
  n8n: z.string(),
  n8nId: z.string(),
  workspaceTypebot: z.string(),
  typebotId: z.string(),
  resetChatbotMsg: z.boolean(),
  schedules: z.array(QueueSchedule),
  lunchHour: z.object({ startTime: z.string(), endTime: z.string() }),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type Queue = z.infer<typeof Queue>;

/** Default opening hours (spec 001 §3): 08–18 Mon–Fri, 08–12 Sat, closed Sun, lunch 12–13. */
export const DEFAULT_SCHEDULES: QueueSchedule[] = [
  { weekday: "Segunda-feira", weekdayEn: "monday", startTime: "08:00", endTime: "18:00" },
  { weekday: "Terça-feira", weekdayEn: "tuesday", startTime: "08:00", endTime: "18:00" },
  { weekday: "Quarta-feira", weekdayEn: "wednesday", startTime: "08:00", endTime: "18:00" },
  { weekday: "Quinta-feira", weekdayEn: "thursday", startTime: "08:00", endTime: "18:00" },
  { weekday: "Sexta-feira", weekdayEn: "friday", startTime: "08:00", endTime: "18:00" },
  { weekday: "Sábado", weekdayEn: "saturday", startTime: "08:00", endTime: "12:00" },
  { weekday: "Domingo", weekdayEn: "sunday", startTime: "00:00", endTime: "00:00" },
];
export const DEFAULT_LUNCH = { startTime: "12:00", endTime: "13:00" };

/** Router interval choices in minutes (spec 001 §9). */
export const ROUTER_MINUTES = [0, 2, 5, 10, 15, 30, 45, 60] as const;

/**
 * Chatbot integrations of a queue ('' for none; spec 001 §3). "ai" is ours (issue #20): the
 * company's AI module answers the queue's customers (domain/queue_bot.ts).
 */
export const CHATBOT_TYPES = ["", "n8n", "typebot", "ai"] as const;

/** The message of a time that is not HH:MM. */
export const INVALID_TIME = "Invalid time";

/** A wall-clock time as the ##:## mask produces it (spec 001 §5), 00:00 to 23:59. */
export const ClockTime = z.string().max(5, INVALID_TIME).regex(/^([01]\d|2[0-3]):[0-5]\d$/, INVALID_TIME);

/** One weekday of a queue's hours as a form sends it (stored records stay lenient). */
export const QueueScheduleInput = QueueSchedule.extend({
  weekday: z.string().max(MAX.shortText, MSG.tooLong),
  weekdayEn: z.string().max(MAX.shortText, MSG.tooLong),
  startTime: ClockTime,
  endTime: ClockTime,
});
export type QueueScheduleInput = z.infer<typeof QueueScheduleInput>;

/** POST /queue and PUT /queue/{id} body. */
export const QueueInput = z.object({
  name: sized(2, 50),
  color: z.string({ error: MSG.required }).trim().min(1, MSG.required).min(3, MSG.tooShort)
    .max(9, MSG.tooLong),
  /** Required (spec 001 §5): an empty field is missing, not 0 as plain coercion would make it. */
  prioridade: z.preprocess(
    (v) => (v === "" || v === null ? undefined : v),
    z.coerce.number({ error: MSG.required }).int().min(0),
  ),
  greetingMessage: z.string().max(MAX.message, MSG.tooLong).default(""),
  outOfHoursMessage: z.string().max(MAX.message, MSG.tooLong).default(""),
  tempoRoteador: z.coerce.number().min(0).max(Math.max(...ROUTER_MINUTES))
    .refine((n) => (ROUTER_MINUTES as readonly number[]).includes(n), "Invalid interval")
    .default(0),
  ativarRoteador: z.boolean().default(false),
  isChatbot: z.boolean().default(false),
  typeChatbot: z.enum(CHATBOT_TYPES).default(""),
  n8n: z.string().max(MAX.url, MSG.tooLong).default(""),
  n8nId: z.string().max(MAX.name, MSG.tooLong).default(""),
  workspaceTypebot: z.string().max(MAX.name, MSG.tooLong).default(""),
  typebotId: z.string().max(MAX.name, MSG.tooLong).default(""),
  resetChatbotMsg: z.boolean().default(false),
  schedules: z.array(QueueScheduleInput).max(7).default(DEFAULT_SCHEDULES),
  lunchHour: z.object({ startTime: ClockTime, endTime: ClockTime }).default(DEFAULT_LUNCH),
});
export type QueueInput = z.infer<typeof QueueInput>;

/** The queues in the order of GET /queue: prioridade ascending, then id. */
export function byPriority(list: readonly Queue[]): Queue[] {
  return [...list].sort((a, b) => a.prioridade - b.prioridade || a.id - b.id);
}

/** The queue of `records` other than `selfId` that already uses `color` (case-insensitive). */
export function colorOwner(
  records: Iterable<Queue>,
  color: string,
  selfId?: number,
): Queue | undefined {
  const wanted = color.trim().toLowerCase();
  for (const q of records) {
    if (q.id !== selfId && q.color.trim().toLowerCase() === wanted) return q;
  }
  return undefined;
}

/** GET /queue query: a super user may name another company. */
export const QueueListQuery = z.object({ companyId: OptionalId.optional() });
