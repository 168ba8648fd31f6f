/** The satisfaction surveys of a company (scope = company id), published on `company-{id}-rating`. */
import { companyChannel } from "../../domain/events.ts";
import { Rating } from "../../domain/rating.ts";
import { defineCollection } from "../collection/mod.ts";

export const ratings = defineCollection<Rating>({
  name: "rating",
  parse: (raw) => Rating.parse(raw),
  events: (action, rating) => [{
    companyId: rating.companyId,
    channel: companyChannel(rating.companyId, "rating"),
    data: action === "delete" ? { action, ratingId: rating.id } : { action, rating },
    scope: { kind: "company" },
  }],
});
