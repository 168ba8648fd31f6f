/**
 * 'Abrir ticket' of a contact row (spec 001 §2.14): the contact's open or pending ticket when
 * it has one (GET /contacts/{id}/active-ticket), else a new open ticket for the viewer, as the
 * inbox's new-ticket dialog creates it (POST /tickets: the viewer's first queue, which a plain
 * user must give, and the viewer's default connection, else the company's; a contact card in a
 * conversation names that conversation's connection). The caller navigates to /tickets/{uuid}.
 */
import { api, get } from "../lib/api.ts";
import type { SessionUser } from "../lib/session.ts";

/** The uuid of the ticket to open for `contactId`. */
export async function ticketFor(viewer: SessionUser, contactId: number, whatsappId = viewer.whatsappId): Promise<string> {
  const active = await get<{ uuid: string } | null>(`/contacts/${contactId}/active-ticket`);
  if (active?.uuid) return active.uuid;
  const created = await api<{ uuid: string }>("POST", "/tickets", {
    contactId,
    queueId: viewer.queues[0]?.id ?? null,
    whatsappId,
    userId: viewer.id,
    status: "open",
  });
  return created.uuid;
}
