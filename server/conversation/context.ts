/**
 * What one decision of the conversation engine reads (domain/conversation.ts
 * ConversationContext), gathered from the company's in-memory collections: settings, hours,
 * the connection's queues in menu order, every queue and option. No KV read on the way.
 */
import { companySettings, getCompany } from "../../actors/platform/lookup.ts";
import { queueOptions } from "../../actors/queue_options/collection.ts";
import { queues } from "../../actors/queues/collection.ts";
import type { ActorSystem } from "../../actors/_runtime/system.ts";
import { companyTimeZone } from "../../domain/closed_period.ts";
import type { ConversationContext, ConversationQueue } from "../../domain/conversation.ts";
import { byPriority } from "../../domain/queue.ts";
import type { Ticket } from "../../domain/ticket.ts";
import type { Whatsapp } from "../../domain/whatsapp.ts";

/** The context of a decision about `ticket` on `connection` at `now`. */
export async function loadContext(
  system: ActorSystem,
  connection: Whatsapp,
  ticket: Pick<Ticket, "companyId" | "status" | "userId" | "queueId">,
  now: number,
): Promise<ConversationContext> {
  const { companyId } = ticket;
  const [settings, company, queueRecords, optionRecords] = await Promise.all([
    companySettings(system, companyId),
    getCompany(system, companyId),
    queues.in(system, companyId).records(),
    queueOptions.in(system, companyId).records(),
  ]);
  const byId = new Map<number, ConversationQueue>();
  for (const q of queueRecords.values()) byId.set(q.id, q);
  const offered = new Set(connection.queueIds);
  const menuOrder = byPriority([...queueRecords.values()].filter((q) => offered.has(q.id))).map((q) => q.id);
  return {
    now,
    timeZone: companyTimeZone(settings),
    settings,
    companyHours: { schedules: company?.schedules ?? [], lunchHour: company?.lunchHour ?? null },
    connection: {
      greetingMessage: connection.greetingMessage,
      outOfHoursMessage: connection.outOfHoursMessage,
      queueIds: menuOrder,
    },
    queues: byId,
    options: [...optionRecords.values()],
    ticket: { status: ticket.status, userId: ticket.userId, queueId: ticket.queueId },
  };
}
