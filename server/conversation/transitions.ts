/**
 * What the customer hears of an agent's ticket change (issue #17 settings):
 * - sendTransferAlert: a transfer to another queue or user tells the customer where to;
 * - sendFarewellWaitingTicket: closing a ticket that was still waiting (pending) sends the
 *   connection's completion message, as a resolve sends the farewell, unless the user chose
 *   "Fechar sem despedida" (`farewell` false, #41);
 * - sendQueuePosition: a ticket sent back to wait in a queue is told its place in line.
 * Called after the change is durable (server/api/ticket_effects.ts); a failed send is logged.
 */
import { getCompanyUser } from "../../actors/platform/lookup.ts";
import { companySettings } from "../../actors/platform/lookup.ts";
import { queues } from "../../actors/queues/collection.ts";
import { whatsapps } from "../../actors/whatsapps/collection.ts";
import { transferText } from "../../domain/conversation_texts.ts";
import { settingOn } from "../../domain/settings.ts";
import type { Ticket, TicketCommand } from "../../domain/ticket.ts";
import type { AppDeps } from "../deps.ts";
import { tellPosition } from "./positions.ts";
import { sendBot } from "./send.ts";

/** Sends what the settings ask for after `before` became `after` by `commands`. */
export async function afterTransition(
  deps: AppDeps,
  before: Ticket,
  after: Ticket,
  commands: readonly TicketCommand["type"][],
  farewell?: boolean,
): Promise<void> {
  const { system } = deps;
  const { companyId } = after;
  const settings = await companySettings(system, companyId);
  const moved = before.queueId !== after.queueId || (after.userId !== null && before.userId !== after.userId);
  if (commands.includes("transfer") && after.status !== "closed" && moved && settingOn(settings.sendTransferAlert)) {
    const [queue, user] = await Promise.all([
      after.queueId === null ? undefined : queues.in(system, companyId).get(after.queueId),
      after.userId === null ? undefined : getCompanyUser(system, companyId, after.userId),
    ]);
    await sendBot(deps, companyId, after.id, { text: transferText(queue?.name ?? null, user?.name ?? null) });
  }
  if (before.status === "pending" && after.status === "closed" && farewell !== false && settingOn(settings.sendFarewellWaitingTicket)) {
    const conn = after.whatsappId === null ? undefined : await whatsapps.in(system, companyId).get(after.whatsappId);
    const text = conn?.complationMessage?.trim() ?? "";
    if (text) await sendBot(deps, companyId, after.id, { text });
  }
  if (
    after.status === "pending" && after.userId === null && after.queueId !== null &&
    (before.queueId !== after.queueId || before.status !== "pending") && settingOn(settings.sendQueuePosition)
  ) {
    await tellPosition(deps, companyId, after.id, after.queueId);
  }
}
