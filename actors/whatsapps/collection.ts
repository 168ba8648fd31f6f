/**
 * The connections of a company (scope = company id), published on `company-{id}-whatsapp`.
 * Session state (status, qrcode, retries) is written here by the session actor, so lists
 * read one place.
 */
import { companyChannel } from "../../domain/events.ts";
import { Whatsapp } from "../../domain/whatsapp.ts";
import { defineCollection } from "../collection/mod.ts";

export const whatsapps = defineCollection<Whatsapp>({
  name: "whatsapp",
  parse: (raw) => Whatsapp.parse(raw),
  events: (action, whatsapp) => [{
    companyId: whatsapp.companyId,
    channel: companyChannel(whatsapp.companyId, "whatsapp"),
    // Everyone of the company hears it: the connection's API token stays out of the event.
    data: action === "delete" ? { action, whatsappId: whatsapp.id } : { action, whatsapp: { ...whatsapp, token: "" } },
    scope: { kind: "company" },
  }],
});
