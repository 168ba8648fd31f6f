/**
 * The host side of the contact-lists checker (actors/contact_lists/ports.ts): a number is
 * checked on the company's default connection through `Channels.checkNumber`, which takes the
 * connection's shared anti-ban pacing slot first.
 */
import type { ContactListPorts } from "../../actors/contact_lists/mod.ts";
import { defaultWhatsapp } from "../../actors/whatsapps/mod.ts";
import type { AppDeps } from "../deps.ts";

/** Retry after a failed check (no connection, session down). */
const RETRY_MS = 30_000;

export function contactListNumberCheck(deps: Pick<AppDeps, "system" | "channels">): ContactListPorts {
  return {
    retryMs: RETRY_MS,
    async checkNumber(companyId, number) {
      const conn = await defaultWhatsapp(deps.system, companyId);
      return (await deps.channels.checkNumber(companyId, conn.id, number)).exists;
    },
  };
}
