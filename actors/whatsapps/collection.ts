/**
 * The connections of a company (scope = company id), published on `company-{id}-whatsapp`.
 * Session state (status, qrcode, retries) is written here by the session actor, so lists
 * read one place.
 */
import { companyChannel, splitForAdmins } from "../../domain/events.ts";
import { Whatsapp, withoutCloudSecrets, withoutQr } from "../../domain/whatsapp.ts";
import { defineCollection } from "../collection/mod.ts";

export const whatsapps = defineCollection<Whatsapp>({
  name: "whatsapp",
  parse: (raw) => Whatsapp.parse(raw),
  events: (action, whatsapp) => {
    const channel = companyChannel(whatsapp.companyId, "whatsapp");
    if (action === "delete") {
      return [{ companyId: whatsapp.companyId, channel, data: { action, whatsappId: whatsapp.id }, scope: { kind: "company" } }];
    }
    // Everyone of the company hears it: the connection's API token and Cloud API
    // credentials stay out of the event, and only admins (who may pair the phone) get its QR codes.
    const open = withoutCloudSecrets({ ...whatsapp, token: "" });
    return splitForAdmins(
      { companyId: whatsapp.companyId, channel, data: { action, whatsapp: open } },
      { action, whatsapp: withoutQr(open) },
    );
  },
});
