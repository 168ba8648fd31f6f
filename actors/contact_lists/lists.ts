/**
 * The contact lists of a company (scope = company id), as one collection: keys
 * `["contact_list", companyId, id]`, the records the campaign engine names lists by.
 * Published on `company-{id}-ContactList` (spec 001 §7) as `{ action, record }`, or
 * `{ action: "delete", id }`.
 */
import { ContactList } from "../../domain/contact_list.ts";
import { companyChannel } from "../../domain/events.ts";
import { defineCollection } from "../collection/mod.ts";

export const contactLists = defineCollection<ContactList>({
  name: "contact_list",
  parse: (raw) => ContactList.parse(raw),
  events: (action, record) => [{
    companyId: record.companyId,
    channel: companyChannel(record.companyId, "ContactList"),
    data: action === "delete" ? { action, id: record.id } : { action, record },
    scope: { kind: "company" },
  }],
});
