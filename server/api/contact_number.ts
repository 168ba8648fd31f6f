/**
 * Whether a contact's number is on WhatsApp (spec 000 §5, §7: POST /contacts answers
 * `invalido`; a contact card's "Conversar" is disabled for a number outside WhatsApp), asked
 * through a connection's adapter (`checkNumber`: the simulator, Baileys and Evolution can;
 * the Cloud API has no such check and says yes).
 *
 * A number WhatsApp confirmed is remembered for a day per connection (the cache the external
 * messages API keeps, external_messages_state.ts), so a card's lookup and the save that
 * follows cost one paced check.
 *
 * The answer is `null` when nobody can tell now: the company has no such connection, it is not
 * connected, or the check failed or took longer than `CHECK_TIMEOUT_MS` (a check waits for the
 * connection's anti-ban slot, like a send). A contact is then saved unchecked rather than
 * refused: a company whose phone is offline can still keep its address book, and a send to a
 * number without WhatsApp fails visibly later anyway.
 */
import { whatsapps } from "../../actors/whatsapps/collection.ts";
import type { AppDeps } from "../deps.ts";
import { externalApiState } from "./external_messages_state.ts";

/** How long a save waits for the check before it goes on unchecked. */
export const CHECK_TIMEOUT_MS = 5000;

/**
 * `true`/`false` for `number` on the connection `whatsappId` of the company (else its default
 * connection); `null` when it cannot be told (see the module doc).
 */
export async function numberOnWhatsapp(
  deps: AppDeps,
  companyId: number,
  number: string,
  whatsappId?: number,
): Promise<boolean | null> {
  const records = await whatsapps.in(deps.system, companyId).records();
  const conn = whatsappId ? records.get(whatsappId) : [...records.values()].find((w) => w.isDefault);
  if (!conn || conn.companyId !== companyId) return null;
  const confirmed = externalApiState(deps).numbers;
  if (confirmed.get(conn.id, number, Date.now())) return true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => timer = setTimeout(() => resolve(null), CHECK_TIMEOUT_MS));
  try {
    const checked = deps.channels.checkNumber(companyId, conn.id, number).then((r) => {
      if (r.exists) confirmed.confirm(conn.id, number, r.jid, Date.now());
      return r.exists;
    }, () => null);
    return await Promise.race([checked, late]);
  } finally {
    clearTimeout(timer);
  }
}
