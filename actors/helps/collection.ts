/** Help entries: one platform-wide collection (scope 0), written only by super users. */
import { Help } from "../../domain/help.ts";
import { defineCollection } from "../collection/mod.ts";

/** The help entries of the platform; address with `helps.in(system, PLATFORM)`. */
export const helps = defineCollection<Help>({
  name: "help",
  parse: (raw) => Help.parse(raw),
});
