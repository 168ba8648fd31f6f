/** The queues of a company (scope = company id), published on `company-{id}-queue`. */
import { companyChannel } from "../../domain/events.ts";
import { Queue } from "../../domain/queue.ts";
import { defineCollection } from "../collection/mod.ts";

export const queues = defineCollection<Queue>({
  name: "queue",
  parse: (raw) => Queue.parse(raw),
  events: (action, queue) => [{
    companyId: queue.companyId,
    channel: companyChannel(queue.companyId, "queue"),
    data: action === "delete" ? { action, queueId: queue.id } : { action, queue },
    scope: { kind: "company" },
  }],
});
