/** The tags of a company (scope = company id), published on `company-{id}-tag`. */
import { companyChannel } from "../../domain/events.ts";
import { Tag } from "../../domain/tag.ts";
import { defineCollection } from "../collection/mod.ts";

export const tags = defineCollection<Tag>({
  name: "tag",
  parse: (raw) => Tag.parse(raw),
  events: (action, tag) => [{
    companyId: tag.companyId,
    channel: companyChannel(tag.companyId, "tag"),
    data: action === "delete" ? { action, tagId: tag.id } : { action, tag },
    scope: { kind: "company" },
  }],
});
