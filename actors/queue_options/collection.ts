/** The chatbot options of a company's queues (scope = company id), on `company-{id}-queueOption`. */
import { companyChannel } from "../../domain/events.ts";
import { QueueOption } from "../../domain/queue_option.ts";
import { defineCollection } from "../collection/mod.ts";

export const queueOptions = defineCollection<QueueOption>({
  name: "queue_option",
  parse: (raw) => QueueOption.parse(raw),
  events: (action, option) => [{
    companyId: option.companyId,
    channel: companyChannel(option.companyId, "queueOption"),
    data: action === "delete"
      ? { action, queueOptionId: option.id }
      : { action, queueOption: option },
    scope: { kind: "company" },
  }],
});
