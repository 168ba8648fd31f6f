/**
 * A user's unread announcements and its read marks. The unread list is two in-memory reads
 * (the platform's announcements and the user's one read-marks record), no KV scan.
 */
import type { ActorSystem } from "../_runtime/system.ts";
import {
  type Announcement,
  type AnnouncementReads,
  unreadAnnouncements,
  withReadMark,
} from "../../domain/announcement.ts";
import { notFound } from "../../domain/errors.ts";
import { PLATFORM } from "../platform/collections.ts";
import { announcementReads, announcements } from "./collection.ts";

/** Who reads: a user and its company. */
export interface Reader {
  id: number;
  companyId: number;
}

/** The 404 of an announcement that does not exist. */
export const noAnnouncement = (id: number | string) =>
  notFound("ERR_NOT_FOUND", `Announcement ${id} does not exist`);

/** The ids of the announcements `reader` has read. */
export async function readIds(system: ActorSystem, reader: Reader): Promise<Set<number>> {
  const marks = await announcementReads.in(system, reader.companyId).get(reader.id);
  return new Set(marks?.read ?? []);
}

/** The active announcements `reader` has not read, by priority then newest. */
export async function unreadFor(system: ActorSystem, reader: Reader): Promise<Announcement[]> {
  const [all, read] = await Promise.all([
    announcements.in(system, PLATFORM).records(),
    readIds(system, reader),
  ]);
  return unreadAnnouncements(all.values(), read);
}

/**
 * Marks announcement `announcementId` read for `reader` (idempotent); throws the 404 when the
 * announcement does not exist. Marks of announcements deleted since are dropped on the way.
 */
export async function markRead(
  system: ActorSystem,
  reader: Reader,
  announcementId: number,
): Promise<AnnouncementReads> {
  const all = await announcements.in(system, PLATFORM).records();
  if (!all.has(announcementId)) throw noAnnouncement(announcementId);
  const existing = new Set(all.keys());
  return await announcementReads.in(system, reader.companyId).transact((view) => {
    const old = view.records.get(reader.id);
    const read = withReadMark(old?.read ?? [], announcementId, existing);
    if (old && read.length === old.read.length && old.read.includes(announcementId)) {
      return { reply: old }; // already marked and nothing to prune: no write
    }
    const next: AnnouncementReads = {
      id: reader.id,
      companyId: reader.companyId,
      read,
      updatedAt: view.now,
    };
    return { put: [next], reply: next };
  });
}
