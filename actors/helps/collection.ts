/**
 * Help entries: one platform-wide collection (scope 0), written only by super users. Every
 * change goes to every company's sockets on `company-help`, so an open Help screen follows
 * the platform owner's edits.
 */
import type { BusEvent } from "../../domain/events.ts";
import { Help, HELP_CHANNEL } from "../../domain/help.ts";
import { defineCollection } from "../collection/mod.ts";

/** The help entries of the platform; address with `helps.in(system, PLATFORM)`. */
export const helps = defineCollection<Help>({
  name: "help",
  parse: (raw) => Help.parse(raw),
  events: (action, record): BusEvent[] => [{
    companyId: null,
    channel: HELP_CHANNEL,
    data: action === "delete" ? { action, id: record.id } : { action, record },
    scope: { kind: "company" },
  }],
});
