/** Quick replies (spec 001 §2.18, §3, §5, §6): shortcodes with a text and optional media. */
import { z } from "zod";
import { MAX, MSG } from "./text.ts";

export const QuickMessage = z.object({
  id: z.number(),
  companyId: z.number(),
  /** The author; its own non-general replies are the only ones a plain user may change. */
  userId: z.number(),
  shortcode: z.string(),
  message: z.string(),
  /** General (shared with the whole company); only admin and supervisor set it. */
  geral: z.boolean(),
  status: z.boolean(),
  /** Stored media file name (server/api/media_links.ts) and its original name. */
  mediaPath: z.string().nullable(),
  mediaName: z.string().nullable(),
  caption: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type QuickMessage = z.infer<typeof QuickMessage>;

/** Media types a quick reply may carry (spec 001 §5). */
export const QUICK_MEDIA = [".mp4", ".mp3", ".pdf", ".txt", ".png", ".jpg", ".jpeg"] as const;

/** Whether a file name has one of the QUICK_MEDIA extensions (checked before any upload). */
export function isQuickMedia(name: string): boolean {
  const dot = name.lastIndexOf(".");
  return dot > 0 && (QUICK_MEDIA as readonly string[]).includes(name.slice(dot).toLowerCase());
}

const Bool = z.preprocess((v) => v === true || v === "true" || v === "1" || v === 1, z.boolean());

/**
 * POST /quick-messages and PUT /quick-messages/{id} body. `message` may be empty only when a
 * file comes with the body or `mediaName` says one is attached (the client uploads it next).
 */
export const QuickMessageInput = z.object({
  shortcode: z.string({ error: MSG.obrigatorio }).trim().min(1, MSG.obrigatorio)
    .max(100, MSG.tooLong),
  message: z.string().max(10_000, MSG.tooLong).default(""),
  geral: Bool.default(false),
  status: Bool.default(true),
  caption: z.string().max(1000).default(""),
  mediaName: z.string().max(MAX.name, MSG.tooLong).nullable().optional(),
});
export type QuickMessageInput = z.infer<typeof QuickMessageInput>;

/** Whether `message` may be empty: a file is (or will be) attached. */
export function messageRequired(input: QuickMessageInput, hasFile: boolean): boolean {
  return !hasFile && !input.mediaName && input.message.trim() === "";
}

/** Who may see a quick reply: its author, anyone when general, managers always. */
export function canSeeQuickMessage(
  who: { id: number; manageAll: boolean },
  q: Pick<QuickMessage, "userId" | "geral">,
): boolean {
  return who.manageAll || q.geral || q.userId === who.id;
}

/** Who may edit or delete it (spec 001 §6): managers any; a user only its own non-general ones. */
export function canChangeQuickMessage(
  who: { id: number; manageAll: boolean },
  q: Pick<QuickMessage, "userId" | "geral">,
): boolean {
  return who.manageAll || (!q.geral && q.userId === who.id);
}

/** GET /quick-messages/list query (both read as text and otherwise ignored: the caller's own are listed). */
export const QuickMessageListQuery = z.object({
  userId: z.string().max(MAX.shortText, MSG.tooLong).optional(),
  companyId: z.string().max(MAX.shortText, MSG.tooLong).optional(),
});
