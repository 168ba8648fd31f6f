/**
 * A campaign message in the contact's ticket (campaign `openTicket`): the contact (created
 * with the list's name when new), the ticket chosen by the rule of messages to a number
 * (server/usecases/contact_ticket.ts `ticketOf`), taken by `userId` when `statusTicket` is
 * open, tagged with the campaign's tag, and the message stored like an agent's and shown
 * live, marked sent with the provider's id.
 *
 * It runs after the provider accepted the keyed send, so exactly-once holds here too: a step
 * re-delivered after a crash sends the same key, gets the first send's provider id back, and
 * finds the message already stored under it (findByProvider) instead of storing it twice.
 */
import { findByProvider, recordSendResult, storeOutgoing } from "../../actors/messages/mod.ts";
import type { CampaignSend } from "../../actors/campaigns/mod.ts";
import { setTicketTags } from "../../actors/tickets/mod.ts";
import { whatsapps } from "../../actors/whatsapps/collection.ts";
import type { AppDeps } from "../deps.ts";
import { contactOf, ticketOf } from "../usecases/contact_ticket.ts";
import { mediaCopy } from "../usecases/message_send.ts";
import { assignPending } from "../usecases/ticket_transition.ts";

/** Stores `m` (accepted as `providerId`) in its contact's ticket, once. */
export async function storeCampaignMessage(deps: AppDeps, m: CampaignSend, providerId: string): Promise<void> {
  const t = m.ticket;
  if (!t?.open) return;
  if (await findByProvider(deps.system, m.companyId, providerId)) return;
  const conn = (await whatsapps.in(deps.system, m.companyId).records()).get(m.whatsappId);
  if (!conn) return;
  const contact = await contactOf(deps, conn, m.number, m.name || m.number);
  // statusTicket "closed": the message joins the contact's history without opening a conversation.
  let ticket = await ticketOf(deps, conn, contact, { openTicket: t.status === "closed" ? 0 : 1, queueId: t.queueId });
  if (t.status === "open" && t.userId !== null && ticket.status === "pending") ticket = await assignPending(deps, ticket, t.userId);
  if (t.tagId !== null && !ticket.tagIds.includes(t.tagId)) {
    ticket = await setTicketTags(deps.system, m.companyId, ticket.id, [...ticket.tagIds, t.tagId]);
  }
  // The message owns a copy of the campaign's file (deleting one message never removes the campaign's).
  const media = m.media ? await mediaCopy(deps, m.companyId, m.media.path, m.media.name) : null;
  const { message } = await storeOutgoing(deps, ticket, { body: m.body, userId: t.userId, ...media }, contact);
  await recordSendResult(deps.system, m.companyId, ticket.id, message.id, { providerId });
}
