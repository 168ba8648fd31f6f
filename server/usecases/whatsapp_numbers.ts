/**
 * Whether a number is on WhatsApp, asked through a connection's adapter (`checkNumber`: the
 * simulator, Baileys and Evolution can; the Cloud API has no such check and says yes), through
 * the connection's shared anti-ban pacing like a send. A number WhatsApp confirmed is
 * remembered for a day per connection and per server (a cache, never business state: a
 * restart only checks again), so a client of the external API sending often to the same
 * customers, or a contact card's lookup and the save that follows, cost one paced check.
 *
 * Two readers:
 * - a message to a number (the external API, `confirmedNumber`): a number WhatsApp does not
 *   know is refused with ERR_WAPP_INVALID_CONTACT;
 * - a contact's number (spec 000 §5, §7: POST /contacts answers `invalido`; a contact card's
 *   "Conversar" is disabled for a number outside WhatsApp, `numberOnWhatsapp`). The answer is
 *   `null` when nobody can tell now: the company has no such connection, it is not connected,
 *   or the check failed or took longer than `CHECK_TIMEOUT_MS`. A contact is then saved
 *   unchecked rather than refused: a company whose phone is offline can still keep its address
 *   book, and a send to a number without WhatsApp fails visibly later anyway.
 */
import { getCompany } from "../../actors/platform/lookup.ts";
import { whatsapps } from "../../actors/whatsapps/collection.ts";
import { AppError } from "../../domain/errors.ts";
import { normalizePhone, phoneProblem } from "../../domain/phone_number.ts";
import type { Whatsapp } from "../../domain/whatsapp.ts";
import type { AppDeps } from "../deps.ts";

/** How long a contact's save waits for the check before it goes on unchecked. */
export const CHECK_TIMEOUT_MS = 5000;

/** How long a confirmed number is trusted, and how many are kept. */
const NUMBER_TTL_MS = 24 * 3600_000;
const MAX_NUMBERS = 50_000;

/** Numbers WhatsApp confirmed, per connection: the number to use (the JID's digits). */
class CheckedNumbers {
  #seen = new Map<string, { number: string; at: number }>();

  get(whatsappId: number, number: string, now: number): string | undefined {
    const key = `${whatsappId}:${number}`;
    const hit = this.#seen.get(key);
    if (!hit || now - hit.at > NUMBER_TTL_MS) return undefined;
    return hit.number;
  }

  set(whatsappId: number, number: string, confirmed: string, now: number): void {
    const key = `${whatsappId}:${number}`;
    this.#seen.delete(key);
    this.#seen.set(key, { number: confirmed, at: now });
    if (this.#seen.size > MAX_NUMBERS) this.#seen.delete(this.#seen.keys().next().value!);
  }

  /** Remembers `number` as confirmed with WhatsApp's `jid` (its digits, else the number); returns the number to use. */
  confirm(whatsappId: number, number: string, jid: string | undefined, now: number): string {
    const confirmed = jid ? jid.split("@")[0].split(":")[0].replace(/\D/g, "") || number : number;
    this.set(whatsappId, number, confirmed, now);
    return confirmed;
  }
}

/** The confirmed numbers of each server (one per `AppDeps`, made on first use). */
const caches = new WeakMap<AppDeps, CheckedNumbers>();

function checkedNumbers(deps: AppDeps): CheckedNumbers {
  let cache = caches.get(deps);
  if (!cache) caches.set(deps, cache = new CheckedNumbers());
  return cache;
}

const invalidNumber = (number: string) =>
  new AppError("ERR_WAPP_INVALID_CONTACT", {
    status: 400,
    message: `${number} is not a valid WhatsApp number`,
    fields: { number: "ERR_WAPP_INVALID_CONTACT" },
  });

/** The number WhatsApp knows for `raw` on `conn`: checked once per connection (paced), then remembered. */
export async function confirmedNumber(deps: AppDeps, conn: Whatsapp, raw: string): Promise<string> {
  const wanted = normalizePhone(raw, (await getCompany(deps.system, conn.companyId))?.pais);
  if (phoneProblem(wanted)) throw invalidNumber(wanted);
  const cache = checkedNumbers(deps);
  const now = Date.now();
  const known = cache.get(conn.id, wanted, now);
  if (known) return known;
  const { exists, jid } = await deps.channels.checkNumber(conn.companyId, conn.id, wanted);
  if (!exists) throw invalidNumber(wanted);
  return cache.confirm(conn.id, wanted, jid, now);
}

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
  const confirmed = checkedNumbers(deps);
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
