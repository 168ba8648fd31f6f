/**
 * Announcements (spec 000 §2, §7; 002 §2.7, §5, §6, §7). Super users manage them at
 * `/announcements` (list, read, create, update, delete, attach and detach an image); every
 * logged-in user reads its unread ones (`GET /announcements/unread/{companyId}`) and marks
 * them read (`POST /user-announcements/{id}/read`). Every announcement is shown to every
 * company (domain/announcement.ts says why); read marks are per user.
 *
 * Media is stored like quick replies' (media_links.ts, upload_field.ts) in the folder of the
 * author's company and shown as a signed `mediaUrl`.
 */
import { Hono } from "hono";
import { announcements } from "../../actors/announcements/collection.ts";
import { markRead, noAnnouncement, unreadFor } from "../../actors/announcements/reads.ts";
import { PLATFORM } from "../../actors/platform/collections.ts";
import {
  Announcement,
  ANNOUNCEMENT_MEDIA,
  AnnouncementInput,
  ReadMarkInput,
} from "../../domain/announcement.ts";
import { AppError, forbidden } from "../../domain/errors.ts";
import { matchesSearch, paginate, SearchPage } from "../../domain/paging.ts";
import { MSG } from "../../domain/text.ts";
import { requireAuth, requirePermission } from "../auth/middleware.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { idParam, parseBody, parseQuery, parseWith } from "../http/validate.ts";
import { deleteMediaFiles, saveMediaFile, signedMediaUrl } from "./media_links.ts";
import { readUpload, requireExtension } from "./upload_field.ts";

/** Multipart field names that may carry the attachment. */
const FILE_FIELDS = ["file", "medias", "media"];

/** An announcement as the API shows it: the record plus a signed `mediaUrl`. */
export async function announcementView(deps: AppDeps, a: Announcement) {
  return { ...a, mediaUrl: await signedMediaUrl(deps, a.companyId, a.mediaPath) };
}

function coll(deps: AppDeps) {
  return announcements.in(deps.system, PLATFORM);
}

/** A stored attachment: its file name, the uploaded name, and the company folder holding it. */
interface Media {
  path: string;
  name: string;
  companyId: number;
}

/** Saves `file` (after the type check) in company `companyId`'s folder; null when no file. */
async function saveAttachment(deps: AppDeps, companyId: number, file?: File): Promise<Media | null> {
  if (!file) return null;
  requireExtension(file, ANNOUNCEMENT_MEDIA);
  return { path: await saveMediaFile(deps, companyId, file), name: file.name, companyId };
}

/**
 * Sets (or, with `media` null, clears) the media of announcement `id` and removes the file it
 * replaces. A new file is removed again when the record is gone meanwhile.
 */
async function replaceMedia(
  deps: AppDeps,
  id: number,
  media: Media | null,
  changes: Partial<AnnouncementInput> = {},
): Promise<Announcement> {
  let previous: Announcement | undefined;
  const record = await coll(deps).update(
    id,
    (old, now) => {
      previous = old;
      return {
        ...old,
        ...changes,
        mediaPath: media?.path ?? null,
        mediaName: media?.name ?? null,
        updatedAt: now,
      };
    },
    () => noAnnouncement(id),
  ).catch(async (error: unknown) => {
    if (media) await deleteMediaFiles(deps, media.companyId, [media.path]);
    throw error;
  });
  if (previous?.mediaPath && previous.mediaPath !== media?.path) {
    await deleteMediaFiles(deps, previous.companyId, [previous.mediaPath]);
  }
  return record;
}

/** The announcement routes, mounted at `/announcements`. */
export function announcementRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireAuth();
  const superOnly = [auth, requirePermission("super:announcements")] as const;

  app.get("/unread/:companyId", auth, async (c) => {
    const who = c.get("principal");
    const companyId = idParam(c, "companyId", () => forbidden("Unknown company"));
    if (companyId !== who.companyId && !who.super) {
      throw forbidden(`User ${who.id} cannot read the announcements of company ${companyId}`);
    }
    const deps = c.get("deps");
    const unread = await unreadFor(deps.system, who);
    // `read` is the spec's per-user field of the entity (000 §3); here always false.
    const views = unread.map(async (a) => ({ ...(await announcementView(deps, a)), read: false }));
    return c.json(await Promise.all(views));
  });

  app.get("/", ...superOnly, async (c) => {
    const query = parseQuery(c, SearchPage);
    const deps = c.get("deps");
    const hits = (await coll(deps).list())
      .filter((a) => matchesSearch(query.searchParam, a.title, a.text))
      .sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
    const page = paginate(hits, query.pageNumber);
    const records = await Promise.all(page.rows.map((a) => announcementView(deps, a)));
    return c.json({ records, count: page.count, hasMore: page.hasMore });
  });

  app.get("/:id", ...superOnly, async (c) => {
    const id = idParam(c, "id", () => noAnnouncement(c.req.param("id")));
    const deps = c.get("deps");
    const record = await coll(deps).get(id);
    if (!record) throw noAnnouncement(id);
    return c.json(await announcementView(deps, record));
  });

  app.post("/", ...superOnly, async (c) => {
    const { file, fields } = await readUpload(c, FILE_FIELDS);
    const input = parseWith(AnnouncementInput, fields);
    const who = c.get("principal");
    const deps = c.get("deps");
    const media = await saveAttachment(deps, who.companyId, file);
    const record = await coll(deps).create((id, now): Announcement => ({
      id,
      ...input,
      mediaPath: media?.path ?? null,
      mediaName: media?.name ?? null,
      companyId: who.companyId,
      createdBy: who.id,
      createdAt: now,
      updatedAt: now,
    }));
    return c.json(await announcementView(deps, record), 201);
  });

  app.put("/:id", ...superOnly, async (c) => {
    const id = idParam(c, "id", () => noAnnouncement(c.req.param("id")));
    const deps = c.get("deps");
    const old = await coll(deps).get(id);
    if (!old) throw noAnnouncement(id);
    const { file, fields } = await readUpload(c, FILE_FIELDS);
    const { title, text, priority, status } = old;
    const parsed = parseWith(AnnouncementInput, { title, text, priority, status, ...fields });
    // Only the fields sent change, so a concurrent edit of the others is not undone.
    const input = Object.fromEntries(
      Object.entries(parsed).filter(([key]) => Object.hasOwn(Object(fields), key)),
    ) as Partial<AnnouncementInput>;
    if (file) {
      const media = await saveAttachment(deps, old.companyId, file);
      return c.json(await announcementView(deps, await replaceMedia(deps, id, media, input)));
    }
    const record = await coll(deps).update(
      id,
      (current, now) => ({ ...current, ...input, updatedAt: now }),
      () => noAnnouncement(id),
    );
    return c.json(await announcementView(deps, record));
  });

  app.delete("/:id", ...superOnly, async (c) => {
    const id = idParam(c, "id", () => noAnnouncement(c.req.param("id")));
    const deps = c.get("deps");
    const removed = await coll(deps).remove(id, () => noAnnouncement(id));
    if (removed.mediaPath) await deleteMediaFiles(deps, removed.companyId, [removed.mediaPath]);
    return c.json({ message: "Announcement deleted" });
  });

  app.post("/:id/media-upload", ...superOnly, async (c) => {
    const id = idParam(c, "id", () => noAnnouncement(c.req.param("id")));
    const deps = c.get("deps");
    const old = await coll(deps).get(id);
    if (!old) throw noAnnouncement(id);
    const { file } = await readUpload(c, FILE_FIELDS);
    if (!file) {
      throw new AppError("ERR_VALIDATION", {
        status: 400,
        message: `file: ${MSG.obrigatorio}`,
        fields: { file: MSG.obrigatorio },
      });
    }
    const media = await saveAttachment(deps, old.companyId, file);
    const record = await replaceMedia(deps, id, media);
    return c.json({ mensagem: "Arquivo Anexado", ...(await announcementView(deps, record)) });
  });

  app.delete("/:id/media-upload", ...superOnly, async (c) => {
    const id = idParam(c, "id", () => noAnnouncement(c.req.param("id")));
    const deps = c.get("deps");
    const record = await replaceMedia(deps, id, null);
    return c.json({ mensagem: "Arquivo Excluído", ...(await announcementView(deps, record)) });
  });

  return app;
}

/** The read-mark route, mounted at `/user-announcements`. */
export function userAnnouncementRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.post("/:id/read", requireAuth(), async (c) => {
    const id = idParam(c, "id", () => noAnnouncement(c.req.param("id")));
    const body = await parseBody(c, ReadMarkInput);
    const who = c.get("principal");
    if (body.userId !== undefined && body.userId !== who.id) {
      throw forbidden(`User ${who.id} cannot mark announcements read for user ${body.userId}`);
    }
    if (body.announcementId !== undefined && body.announcementId !== id) {
      throw new AppError("ERR_VALIDATION", {
        status: 400,
        message: `announcementId ${body.announcementId} does not match announcement ${id}`,
        fields: { announcementId: `Must be ${id}` },
      });
    }
    const marks = await markRead(c.get("deps").system, who, id);
    return c.json({ userId: who.id, announcementId: id, read: true, readAt: marks.updatedAt });
  });

  return app;
}
