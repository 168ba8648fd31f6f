/**
 * Announcements (spec 000 §2, §3, §7; 002 §2.7, §3, §5, §6, §9): platform announcements that
 * super users write and every user of every company reads in the top bar's bell.
 *
 * Reading chosen for `companyId`: the spec calls them "platform announcements" (002 §1) and
 * publishes them on the one channel `company-announcement`, not on a per-company channel, so
 * every announcement is shown to every company. `companyId` records the author's company,
 * which owns the record's media file; it does not narrow the audience.
 */
import { z } from "zod";
import { Flag, Id, MSG } from "./text.ts";

/** Priority range (1 high, 2 medium, 3 low; 002 §9) and its default. */
export const PRIORITY_MIN = 1;
export const PRIORITY_MAX = 3;
export const PRIORITY_DEFAULT = 3;

/** An announcement as stored. */
export const Announcement = z.object({
  id: z.number(),
  title: z.string(),
  text: z.string(),
  priority: z.number().int().min(PRIORITY_MIN).max(PRIORITY_MAX),
  /** Active: only active announcements reach the bell. */
  status: z.boolean(),
  /** Stored media file name (server/api/media_links.ts) and the uploaded file's name. */
  mediaPath: z.string().nullable(),
  mediaName: z.string().nullable(),
  /** The author's company (owner of the media file), not the audience; see the module doc. */
  companyId: z.number(),
  /** The author (a super user). */
  createdBy: z.number(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type Announcement = z.infer<typeof Announcement>;

/** Attachment types of the announcement dialog (002 §5). */
export const ANNOUNCEMENT_MEDIA = [".png", ".jpg", ".jpeg"] as const;

const Required = (max: number) =>
  z.string({ error: MSG.obrigatorio }).trim().min(1, MSG.obrigatorio).max(max, MSG.tooLong);

/** POST /announcements and PUT /announcements/{id} body (JSON or multipart fields). */
export const AnnouncementInput = z.object({
  title: Required(200),
  text: Required(10_000),
  priority: z.coerce.number().int().min(PRIORITY_MIN).max(PRIORITY_MAX).default(PRIORITY_DEFAULT),
  status: Flag.default(true),
});
export type AnnouncementInput = z.infer<typeof AnnouncementInput>;

/**
 * POST /user-announcements/{id}/read body (000 §7). Both fields are optional echoes of what
 * the token and the path already say; when present they must agree with them.
 */
export const ReadMarkInput = z.object({
  userId: Id.optional(),
  announcementId: Id.optional(),
});
export type ReadMarkInput = z.infer<typeof ReadMarkInput>;

/**
 * One user's read marks (`id` is the user's id): the ids of announcements it has read. Kept
 * per company so a deleted company's marks go with its tenant data; pruned to announcements
 * that still exist whenever the user marks one, so it stays as small as the list itself.
 */
export const AnnouncementReads = z.object({
  id: z.number(),
  companyId: z.number(),
  read: z.array(z.number()),
  updatedAt: z.number(),
});
export type AnnouncementReads = z.infer<typeof AnnouncementReads>;

/** Bell order: priority first (1 before 3), then newest first, then highest id. */
export function byPriorityThenNewest(a: Announcement, b: Announcement): number {
  return a.priority - b.priority || b.createdAt - a.createdAt || b.id - a.id;
}

/** The active announcements not in `read`, in bell order. */
export function unreadAnnouncements(
  all: Iterable<Announcement>,
  read: ReadonlySet<number>,
): Announcement[] {
  return [...all].filter((a) => a.status && !read.has(a.id)).sort(byPriorityThenNewest);
}

/** The read list after marking `announcementId`, keeping only ids in `existing`. */
export function withReadMark(
  read: readonly number[],
  announcementId: number,
  existing: ReadonlySet<number>,
): number[] {
  const next = new Set(read.filter((id) => existing.has(id)));
  next.add(announcementId);
  return [...next].sort((a, b) => a - b);
}

/** Whether a media file is a video (000 §2: recognised by the .mp4 extension). */
export function isVideoMedia(name: string | null | undefined): boolean {
  return !!name && /\.mp4$/i.test(name.split("?")[0]);
}

const YOUTUBE =
  /\bhttps?:\/\/(?:www\.|m\.)?(?:youtube\.com\/(?:watch\?(?:[^\s#]*&)?v=|embed\/|shorts\/)|youtu\.be\/)([A-Za-z0-9_-]{11})/g;
const VIMEO = /\bhttps?:\/\/(?:www\.|player\.)?vimeo\.com\/(?:video\/)?(\d{4,12})\b/g;

/**
 * Embed URLs of the video-site links (YouTube, Vimeo) in an announcement's text, in order of
 * appearance, each once (000 §2: such links are embedded). Only ids pass the patterns, so
 * the URLs built here point at the two sites' embed players and nothing else.
 */
export function videoEmbeds(text: string): string[] {
  const found: Array<{ at: number; url: string }> = [];
  for (const m of text.matchAll(YOUTUBE)) {
    found.push({ at: m.index, url: `https://www.youtube.com/embed/${m[1]}` });
  }
  for (const m of text.matchAll(VIMEO)) {
    found.push({ at: m.index, url: `https://player.vimeo.com/video/${m[1]}` });
  }
  return [...new Set(found.sort((a, b) => a.at - b.at).map((f) => f.url))];
}
