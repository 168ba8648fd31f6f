/** Quick replies of a company (scope = company id), published on `company-{id}-quickmessage`. */
import { companyChannel } from "../../domain/events.ts";
import { QuickMessage } from "../../domain/quick_message.ts";
import { defineCollection } from "../collection/mod.ts";

export const quickMessages = defineCollection<QuickMessage>({
  name: "quick_message",
  parse: (raw) => QuickMessage.parse(raw),
  events: (action, record) => [{
    companyId: record.companyId,
    channel: companyChannel(record.companyId, "quickmessage"),
    data: action === "delete" ? { action, id: record.id } : { action, record },
    // A plain user's own replies are not shown to other plain users; everyone may see
    // general ones. Managers see all.
    scope: record.geral ? { kind: "company" } : { kind: "users", userIds: [record.userId] },
  }],
});
