/** Help entries (spec 001 §2.9, §3): platform-wide, written by super, read by everyone. */
import { z } from "zod";
import { sized } from "./text.ts";

/** A help entry as stored. `video` is a video code (e.g. a YouTube id), not a URL. */
export const Help = z.object({
  id: z.number(),
  title: z.string(),
  description: z.string(),
  video: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type Help = z.infer<typeof Help>;

/** POST /helps and PUT /helps/{id} body. */
export const HelpInput = z.object({
  title: sized(2, 100),
  description: z.string().trim().max(5000).default(""),
  video: z.string().trim().max(200).default(""),
});
export type HelpInput = z.infer<typeof HelpInput>;
