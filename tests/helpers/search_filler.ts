/**
 * Volume for the message-search tests (issue #23): messages written straight into KV so a
 * message index takes a while to build.
 */
import { messageKey } from "../../actors/messages/keys.ts";

/**
 * Writes `tickets` × `perTicket` messages (none with a rare word) under ticket ids above
 * `after`: a build reads the newest tickets first, so these come before older tickets.
 */
export async function seedFiller(kv: Deno.Kv, companyId: number, after: number, tickets: number, perTicket: number) {
  let op = kv.atomic();
  let pending = 0;
  for (let ticketId = after + 1; ticketId <= after + tickets; ticketId++) {
    for (let m = 0; m < perTicket; m++) {
      const body = `bom dia preciso de ajuda com o pedido ${ticketId} número ${m}`;
      op.set(messageKey(companyId, ticketId, `filler-${String(m).padStart(4, "0")}`), { ticketId, body });
      if (++pending === 500) {
        await op.commit();
        op = kv.atomic();
        pending = 0;
      }
    }
  }
  await op.commit();
}
