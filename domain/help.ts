/** Help entries (spec 001 §2.9, §3): platform-wide, written by super, read by everyone. */
import { z } from "zod";
import { videoEmbeds } from "./announcement.ts";
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

/** The channel on which help changes reach every company's sockets (`{ action, record }` / `{ action, id }`). */
export const HELP_CHANNEL = "company-help";

/** The platform setting holding the WhatsApp support number of the Help screen. */
export const SUPPORT_PHONE_KEY = "wasupport";

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;
const VIMEO_ID = /^\d{4,12}$/;

/**
 * The embed URL of a help's `video`. The spec calls it a video code: an 11-character code is
 * a YouTube id, a 4–12 digit code a Vimeo id; a pasted YouTube or Vimeo link is accepted too
 * (the same patterns as announcements). Anything else gives null (no player), so the URL
 * only ever points at those two players.
 */
export function helpEmbedUrl(video: string): string | null {
  const code = video.trim();
  if (YOUTUBE_ID.test(code)) return `https://www.youtube.com/embed/${code}`;
  if (VIMEO_ID.test(code)) return `https://player.vimeo.com/video/${code}`;
  return videoEmbeds(code)[0] ?? null;
}

/** The wa.me link of the support number (its digits), or null when none is set. */
export function supportLink(phone: string): string | null {
  const digits = phone.replace(/\D/g, "");
  return digits.length >= 10 ? `https://wa.me/${digits}` : null;
}
