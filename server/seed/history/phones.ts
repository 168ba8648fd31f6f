/**
 * The customers' phones of the replayed days, as the outbound port the replay's deps carry
 * (domain/channel.ts OutboundPort): what the company sends then is delivered and read on the
 * spot, as the channel would have reported it then: the send result (a provider id) and the
 * customer's read receipt, through the same recording calls a live channel makes. Nothing
 * reaches the simulator's session: its pacing and its queue belong to the present.
 *
 * Like a channel, `send` only queues: the reports are recorded beside the conversation (in
 * its lane's time), and `settled()` waits for all of them.
 */
import { applyAck, recordSendResult } from "../../../actors/messages/mod.ts";
import type { ActorSystem } from "../../../actors/_runtime/system.ts";
import type { OutboundPort, OutboundRequest } from "../../../domain/channel.ts";

/** The port and a wait for its reports; `read(request)` says whether the customer read the message (ack 4) or only got it (3). */
export function replayedPhones(
  system: ActorSystem,
  read: (request: OutboundRequest) => boolean,
): { port: OutboundPort; settled: () => Promise<void> } {
  const reporting = new Set<Promise<void>>();
  const report = async (request: OutboundRequest) => {
    const providerId = `HIST${request.messageId.replace("-", "T")}`;
    await recordSendResult(system, request.companyId, request.ticketId, request.messageId, { providerId });
    await applyAck(system, request.companyId, providerId, read(request) ? 4 : 3);
  };
  return {
    port: {
      send(request) {
        const work = report(request).finally(() => reporting.delete(work));
        reporting.add(work);
        return Promise.resolve();
      },
      ready: () => Promise.resolve(true),
    },
    async settled() {
      while (reporting.size > 0) await Promise.all([...reporting]);
    },
  };
}
