/** Opportunities of a company (scope = company id), published on `company-{id}-oportunidade`. */
import { companyChannel } from "../../domain/events.ts";
import { Oportunidade } from "../../domain/oportunidade.ts";
import { defineCollection } from "../collection/mod.ts";

export const oportunidades = defineCollection<Oportunidade>({
  name: "oportunidade",
  parse: (raw) => Oportunidade.parse(raw),
  events: (action, record) => [{
    companyId: record.companyId,
    channel: companyChannel(record.companyId, "oportunidade"),
    data: action === "delete" ? { action, id: record.id } : { action, record },
    scope: { kind: "company" },
  }],
});
