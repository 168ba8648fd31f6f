/**
 * How a due scheduled message goes out (the schedules actor's port, actors/schedules/ports.ts):
 * the contact and the connection (the schedule's, else the company's default), the ticket
 * chosen by the rule of messages to a number (contact_ticket.ts `ticketOf`: the contact's
 * active ticket takes it as it is; with `geral` a new one waits in `queueId`; without, it
 * joins the contact's history), an opened ticket handed to `userId` when `atribuirUser` asks
 * for it (ticket_transition.ts), and the message stored like an agent's and sent by the same
 * outbound path (ack 0, live to the agents, then paced by the connection's shared anti-ban
 * pacer). A media schedule sends a copy of its file (message_send.ts `mediaCopy`), so every
 * occurrence's message owns its media.
 */
import { getContact } from "../../actors/contacts/mod.ts";
import { sendOutgoing } from "../../actors/messages/mod.ts";
import type { SchedulePorts } from "../../actors/schedules/mod.ts";
import { whatsapps } from "../../actors/whatsapps/collection.ts";
import { AppError } from "../../domain/errors.ts";
import type { Schedule, SendOutcome } from "../../domain/schedule.ts";
import type { Whatsapp } from "../../domain/whatsapp.ts";
import type { AppDeps } from "../deps.ts";
import { ticketOf } from "./contact_ticket.ts";
import { mediaCopy } from "./message_send.ts";
import { assignPending } from "./ticket_transition.ts";
import { log } from "../../actors/_runtime/log.ts";

/** The port the schedules actor sends through (bound in server/start.ts). */
export function scheduleSender(deps: AppDeps): SchedulePorts {
  return { send: (s) => sendSchedule(deps, s) };
}

const failed = (reason: string): SendOutcome => ({ type: "failed", reason });

/** The schedule's connection, else the company's default one. */
async function connectionOf(deps: AppDeps, s: Schedule): Promise<Whatsapp | undefined> {
  const records = await whatsapps.in(deps.system, s.companyId).records();
  if (s.whatsappId !== null) return records.get(s.whatsappId);
  return [...records.values()].find((w) => w.isDefault);
}

/** Sends the due occurrence of `s`; every failure comes back as an outcome (see the module doc). */
export async function sendSchedule(deps: AppDeps, s: Schedule): Promise<SendOutcome> {
  try {
    const contact = await getContact(deps.system, s.companyId, s.contactId);
    if (!contact) return failed("ERR_NO_CONTACT_FOUND");
    const conn = await connectionOf(deps, s);
    if (!conn) return failed(s.whatsappId === null ? "ERR_NO_DEF_WAPP_FOUND" : "ERR_NO_WAPP_FOUND");
    if (!await deps.outbound.ready(s.companyId, conn.id)) return { type: "retry", reason: "ERR_WAPP_NOT_INITIALIZED" };
    let ticket = await ticketOf(deps, conn, contact, { openTicket: s.geral ? 1 : 0, queueId: s.queueId });
    if (s.geral && s.atribuirUser && s.userId !== null && ticket.status === "pending") {
      ticket = await assignPending(deps, ticket, s.userId);
    }
    let media: Awaited<ReturnType<typeof mediaCopy>> | null = null;
    if (s.mediaPath) {
      const name = s.mediaName ?? s.mediaPath;
      media = await mediaCopy(deps, s.companyId, s.mediaPath, name).catch(() => null);
      if (!media) return failed(`Media ${name} is missing`);
    }
    await sendOutgoing(deps, ticket, { body: s.body, userId: s.createdBy, ...media }, contact);
    return { type: "sent", ticketId: ticket.id };
  } catch (error) {
    log.error(`Scheduled message ${s.id} of company ${s.companyId} failed`, { error });
    return failed(error instanceof AppError ? error.code : error instanceof Error ? error.message : String(error));
  }
}
