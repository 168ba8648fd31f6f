/**
 * The demo's campaigns: a finished one, ten days before the end, whose report has every row
 * delivered (the campaign engine sends it through the simulated connection at its own pace,
 * its timers ringing in replayed time, replay.ts), and one programmed for two days after the
 * end. Both go to a contact list of the month's customers, made through the lists' routes.
 */
import { CAMPAIGNS, type Customer } from "./cast.ts";
import type { Replay } from "./replay.ts";
import type { StaffSession } from "./staff.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The finished campaign, sent at `sendAt` by `admin` on connection `whatsappId`; resolves with its contact list. */
export async function playFinishedCampaign(
  replay: Replay,
  admin: StaffSession,
  whatsappId: number,
  customers: readonly Customer[],
  sendAt: number,
): Promise<number> {
  await replay.to(sendAt - DAY);
  const list = await admin.call("POST", "/contact-lists", { name: "Clientes do mês" });
  for (const customer of customers) {
    await admin.call("POST", "/contact-list-items", { contactListId: list.id, name: customer.name, number: customer.number });
  }
  await programme(admin, whatsappId, list.id, CAMPAIGNS.finished, sendAt);
  // The engine's sends and waits (up to a few minutes each) ring at their replayed times.
  await replay.to(sendAt + 4 * HOUR);
  return list.id;
}

/** The campaign programmed for `sendAt` (after the end), made now. */
export async function playScheduledCampaign(admin: StaffSession, whatsappId: number, listId: number, sendAt: number): Promise<void> {
  await programme(admin, whatsappId, listId, CAMPAIGNS.scheduled, sendAt);
}

function programme(
  admin: StaffSession,
  whatsappId: number,
  contactListId: number,
  what: { name: string; message: string },
  at: number,
) {
  return admin.call("POST", "/campaigns", {
    name: what.name,
    status: "PROGRAMADA",
    contactListId,
    whatsappId: String(whatsappId),
    scheduledAt: new Date(at).toISOString(),
    message1: what.message,
  });
}
