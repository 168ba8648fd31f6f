/** Quick replies of a company (scope = company id), published on `company-{id}-quickmessage`. */
import { companyChannel } from "../../domain/events.ts";
import type { BusEvent, EventScope } from "../../domain/events.ts";
import { QuickMessage } from "../../domain/quick_message.ts";
import { defineCollection } from "../collection/mod.ts";

/**
 * Who receives a change: everyone for a general reply; for a private one its author and
 * the managers (admins and supervisors see every reply in their table, as GET /quick-messages
 * answers them). An author who is a manager gets a private one twice; the event is an
 * upsert or a removal by id, so the second copy changes nothing.
 */
function audiences(record: QuickMessage): EventScope[] {
  if (record.geral) return [{ kind: "company" }];
  return [{ kind: "users", userIds: [record.userId] }, { kind: "admins", supervisors: true }];
}

export const quickMessages = defineCollection<QuickMessage>({
  name: "quick_message",
  parse: (raw) => QuickMessage.parse(raw),
  events: (action, record): BusEvent[] =>
    audiences(record).map((scope) => ({
      companyId: record.companyId,
      channel: companyChannel(record.companyId, "quickmessage"),
      data: action === "delete" ? { action, id: record.id } : { action, record },
      scope,
    })),
});
